// The committed client files (client/openapi.json, client/schema.d.ts) are what `npm run client:generate`
// writes from today's router: built again in memory here, so a route or a schema cannot change without them.
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CLIENT_DIR, clientFiles } from '../../scripts/generate-client.js';
import { appRouter } from '../helpers/app-router.js';

/** The first line where two texts part, for a message shorter than a 2 MB diff. */
function firstDifference(committed: string, fresh: string): string {
  const a = committed.split('\n');
  const b = fresh.split('\n');
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}: committed ${JSON.stringify(a[at] ?? '<end>')}, generated ${JSON.stringify(b[at] ?? '<end>')}`;
}

describe('the generated client is fresh', () => {
  it('client/openapi.json and client/schema.d.ts match the router (else: npm run client:generate)', async function () {
    this.timeout(60000);
    const files = await clientFiles(appRouter());
    expect(Object.keys(files).sort()).to.deep.equal(['openapi.json', 'schema.d.ts']);
    for (const [name, fresh] of Object.entries(files)) {
      const committed = await readFile(path.join(CLIENT_DIR, name), 'utf8').catch(() => '');
      expect(
        committed === fresh,
        `client/${name} is stale; run npm run client:generate (${firstDifference(committed, fresh)})`,
      ).to.be.true;
    }
  });
});
