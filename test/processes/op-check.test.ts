// `npm run op -- check` on a real database: every rule holds on consistent data (exit 0), and a broken row
// is named with its rule (exit 1).
import { expect } from 'chai';
import { config } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import { ensureSigningKeys } from '../../shared/identity/signing-keys.js';
import { createApp } from '../../shared/keys/apps.js';
import { seededGame } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { buildAccount } from '../helpers/factories.js';
import { review } from '../helpers/people.js';
import { runOp } from '../helpers/processes.js';

describe('npm run op -- check', function () {
  this.timeout(60000);
  useCleanDatabase();

  it('passes on consistent data and names what breaks a rule', async () => {
    const { account } = await buildAccount({ username: 'checked_dev' });
    const other = await buildAccount({ username: 'checked_other' });
    const app = await createApp(db(), account.id, { name: 'checked' });
    await seededGame(account.id, app.id, 'checked-game', { listed: true });
    await ensureSigningKeys(db(), config().secret);
    const clean = await runOp(['check']);
    expect(clean.code, clean.output).to.equal(0);
    expect(clean.output).to.match(/all \d+ rules hold/);

    // A live release that is not approved, a follow beside a block, and the item of a private review
    // made public by hand.
    await db()('arcade_releases').where({ app_id: app.id }).update({ status: 'revoked' });
    await db()('follows').insert({ follower_id: account.id, followee_id: other.account.id });
    await db()('blocks').insert({ blocker_id: other.account.id, blocked_id: account.id });
    const secret = await review(account.id, { visibility: 'PRIVATE' });
    const [item] = await db()('activity_items')
      .insert({ account_id: account.id, kind: 'review', subject_id: secret.id })
      .returning('id');
    await db()('activity_items').where({ id: item.id }).update({ visibility: 'PUBLIC' });
    // Minerals moved by hand: the other's balance (earned by a review) and the first's lifetime.
    await review(other.account.id);
    await db()('mineral_balances').where({ account_id: other.account.id }).increment('balance', 5);
    await db()('mineral_balances').where({ account_id: account.id }).increment('lifetime', 1);
    const broken = await runOp(['check']);
    expect(broken.code).to.equal(1);
    expect(broken.output).to.include(
      `BROKEN (1): a live release is an approved release of the same game; e.g. ${app.id}`,
    );
    expect(broken.output).to.include('BROKEN (1): a follow is not also a block between the same two accounts');
    expect(broken.output).to.include(
      `BROKEN (1): an activity item stores the visibility of what it is about; e.g. ${item.id}`,
    );
    const minerals = "an account's mineral balance is its ledger's sum, and its lifetime that sum without spending";
    expect(broken.output).to.match(new RegExp(`BROKEN \\(2\\): ${minerals}; e\\.g\\. `));
    for (const id of [account.id, other.account.id]) expect(broken.output).to.include(id);
  });
});
