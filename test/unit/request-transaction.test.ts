// A request's statements go to its transaction; `outsideRequestTransaction` is the way out for what must
// commit whatever the request becomes (an upload's cleanup claim, written before its file). A knex builder
// runs when awaited, so the way out must await it inside: handed back unawaited, it ran in the request.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import {
  currentRequestTransaction,
  outsideRequestTransaction,
  RequestTransaction,
} from '../../shared/platform/db/request-transaction.js';

describe('the request transaction', () => {
  it('commits what runs outside it even when the request rolls back, and nothing of its own', async () => {
    const [outside, inside] = [`test/${randomUUID()}`, `test/${randomUUID()}`];
    const request = new RequestTransaction(db());
    await request.begin();
    await request.run(async () => {
      await outsideRequestTransaction(() => db()('orphaned_media').insert({ storage_key: outside }));
      await db()('orphaned_media').insert({ storage_key: inside });
    });
    await request.rollback();
    const kept = await db()('orphaned_media').whereIn('storage_key', [outside, inside]).pluck('storage_key');
    expect(kept).to.deep.equal([outside]);
    await db()('orphaned_media').where({ storage_key: outside }).delete();
  });

  it('refuses a statement that took the connection before the transaction ended and is sent after it', async () => {
    const request = new RequestTransaction(db());
    await request.begin();
    const held = await request.run(async () => currentRequestTransaction(db())!.statementConnection!);
    await request.commit();
    let refused: unknown = null;
    await Promise.resolve(held.query('SELECT 1')).catch((error: unknown) => (refused = error));
    expect(String(refused)).to.include('after its request transaction ended');
  });
});
