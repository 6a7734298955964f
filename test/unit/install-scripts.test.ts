// Install scripts the project decided on: every package of the lockfile with one is either approved in
// package.json's allowScripts (with the reason it needs one: the embedded PostgreSQL's package of every
// platform, so a clone on macOS starts too; esbuild), which npm versions that enforce it hold installs to,
// or refused on purpose with the reason here. A new dependency that brings one fails this test until someone
// decides. Scarf's analytics ping is switched off in package.json itself, for every npm.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { projectFile } from '../../shared/platform/project-root.js';

const pkg = JSON.parse(readFileSync(projectFile('package.json'), 'utf8')) as {
  allowScripts: Record<string, boolean>;
  scarfSettings?: { enabled?: boolean };
};
const lock = JSON.parse(readFileSync(projectFile('package-lock.json'), 'utf8')) as {
  packages: Record<string, { hasInstallScript?: boolean }>;
};

/** Packages whose install script never runs, and why. */
const REFUSED: Record<string, string> = {
  '@scarf/scarf': 'an install-time analytics ping (pulled in by the Spectral packages)',
  'core-js': 'prints a funding banner; the library works without it',
};

const nameOf = (key: string) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);

describe('install scripts', () => {
  const scripted = Object.entries(lock.packages)
    .filter(([key, entry]) => key !== '' && entry.hasInstallScript)
    .map(([key]) => ({ name: nameOf(key) }));

  it('every package with one is approved or refused on purpose', () => {
    expect(scripted.length).to.be.greaterThan(2);
    const undecided = scripted
      .filter(({ name }) => pkg.allowScripts[name] !== true && !(name in REFUSED))
      .map(({ name }) => name);
    expect(undecided).to.deep.equal([]);
  });

  it('approves none of the refused ones', () => {
    for (const name of Object.keys(REFUSED)) expect(pkg.allowScripts[name], name).to.not.equal(true);
  });

  it("switches Scarf's analytics off for installers that run every script", () => {
    expect(pkg.scarfSettings).to.deep.equal({ enabled: false });
  });
});
