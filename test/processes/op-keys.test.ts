// `npm run op -- keys rotate` as a process: next becomes current, current becomes retiring, a new next.
import { expect } from 'chai';
import { config } from '../../shared/config.js';
import { db } from '../../shared/db/knex.js';
import { ensureSigningKeys } from '../../shared/identity/signing-keys.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { runEntry } from '../helpers/processes.js';

describe('npm run op -- keys rotate', function () {
  this.timeout(60000);
  useCleanDatabase();

  it('rotates the identity keys and says which key now signs', async () => {
    await ensureSigningKeys(db(), config().secret);
    const before = await db()('signing_keys').select('kid', 'state');
    const next = before.find((key) => key.state === 'next')!.kid;
    const current = before.find((key) => key.state === 'current')!.kid;
    const run = runEntry('scripts/op.ts', { DATABASE_URL: process.env.DATABASE_URL, SECRET: process.env.SECRET }, [
      'keys',
      'rotate',
    ]);
    await new Promise((resolve) => run.child.once('close', resolve));
    expect(run.child.exitCode, run.lines.join('\n')).to.equal(0);
    expect(run.lines.join('\n')).to.include(`current signing key is now ${next}`);
    const after = Object.fromEntries((await db()('signing_keys').select('kid', 'state')).map((k) => [k.kid, k.state]));
    expect([after[current], after[next]]).to.deep.equal(['retiring', 'current']);
    expect(Object.values(after).filter((state) => state === 'next')).to.have.length(1);
  });
});
