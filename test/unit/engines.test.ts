// The Node versions package.json declares are true: every package installed for production on this
// platform accepts the oldest Node the range allows and the first Node 22 LTS (nsfwjs 4.4 asked for 22.13,
// undici 7 for 20.18.1, otpauth 9.5's hashes for 20.19, while the project said 20.18). Read from the
// lockfile, so a new dependency is checked without naming it.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import semver from 'semver';

interface Locked {
  dev?: boolean;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  engines?: { node?: string };
}

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, Locked> };

/** A platform package for another system (sharp's win32-ia32, say) is never installed here. */
const forThisPlatform = (info: Locked) =>
  (!info.os || info.os.includes(process.platform)) && (!info.cpu || info.cpu.includes(process.arch));

describe('declared Node engines', () => {
  const oldest = semver.minVersion(pkg.engines.node)!.version;

  it('covers the Node this runs on', () => {
    expect(semver.satisfies(process.versions.node, pkg.engines.node)).to.equal(true);
  });

  for (const version of [oldest, '22.11.0']) {
    it(`is met by every production package on Node ${version}`, () => {
      const refusing = Object.entries(lock.packages)
        .filter(([name, info]) => name !== '' && !info.dev && forThisPlatform(info) && info.engines?.node)
        .filter(([, info]) => !semver.satisfies(version, info.engines!.node!))
        .map(([name, info]) => `${name.replace(/^.*node_modules\//, '')} (${info.engines!.node})`);
      expect(refusing).to.deep.equal([]);
    });
  }
});
