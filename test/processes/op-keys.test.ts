// `npm run op -- keys rotate` as a process: next becomes current, current becomes retiring, a new next
// appears, and the new current kid is printed; a failure exits non-zero and changes nothing.
import { expect } from 'chai';
import { config } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import { ensureSigningKeys, forgetSigner } from '../../shared/identity/signing-keys.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { runOp } from '../helpers/processes.js';

async function kidsByState(): Promise<Record<string, string[]>> {
  const rows: Array<{ kid: string; state: string }> = await db()('signing_keys').select('kid', 'state');
  const out: Record<string, string[]> = {};
  for (const row of rows) (out[row.state] ??= []).push(row.kid);
  return out;
}

describe('npm run op -- keys rotate', function () {
  this.timeout(60000);
  useCleanDatabase();
  beforeEach(async () => {
    await db().raw('TRUNCATE signing_keys');
    forgetSigner();
  });

  it('promotes next to current, keeps the old current as retiring, makes a new next and prints the kid', async () => {
    await ensureSigningKeys(db(), config().secret);
    const before = await kidsByState();
    const result = await runOp(['keys', 'rotate']);
    expect(result.code, result.output).to.equal(0);
    expect(result.output).to.include(`current signing key is now ${before.next[0]}`);
    const after = await kidsByState();
    expect(after.current).to.deep.equal(before.next);
    expect(after.retiring).to.deep.equal(before.current);
    expect(after.next).to.have.length(1).and.not.include(before.current[0]);
    const retiring = await db()('signing_keys').where({ state: 'retiring' }).first('retired_at');
    expect(Date.now() - new Date(retiring.retired_at).getTime()).to.be.below(60_000);
  });

  it('makes a key set first when there is none, then rotates it', async () => {
    const result = await runOp(['keys', 'rotate']);
    expect(result.code, result.output).to.equal(0);
    const after = await kidsByState();
    expect(after.current).to.have.length(1);
    expect(after.next).to.have.length(1);
    expect(after.retiring).to.have.length(1);
    expect(result.output).to.include(`current signing key is now ${after.current[0]}`);
  });

  it('exits non-zero and changes nothing on a failure', async () => {
    await ensureSigningKeys(db(), config().secret);
    const before = await kidsByState();
    const extra = await runOp(['keys', 'rotate', 'now']);
    expect(extra.code).to.equal(1);
    const unreachable = await runOp(['keys', 'rotate'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    expect(unreachable.code).to.equal(1);
    expect(unreachable.output).to.include('Failed');
    expect(await kidsByState()).to.deep.equal(before);
  });
});
