// `npm run op -- retention purge` on a real database: removed games past 180 days go with their rows and
// images but keep their claims, younger evidence stays; expired aliases, long-expired development URLs,
// long-retired keys, ended limit windows, idempotency keys past their 24 hours and data events finished
// more than 30 days ago (with their attempts) go; a second run changes nothing.
import { expect } from 'chai';
import { config } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import { ensureSigningKeys, rotateSigningKeys } from '../../shared/identity/signing-keys.js';
import { createApp } from '../../shared/keys/apps.js';
import { releaseColumns, seededGame } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { buildAccount } from '../helpers/factories.js';
import { runOp } from '../helpers/processes.js';

const DAY = 86_400_000;

describe('npm run op -- retention purge', function () {
  this.timeout(60000);
  useCleanDatabase();

  it('deletes only what is past its time, and a second run changes nothing', async () => {
    const { account } = await buildAccount({ username: 'purged_dev' });
    const game = async (slug: string, removedDaysAgo: number | null) => {
      const app = await createApp(db(), account.id, { name: slug });
      await seededGame(account.id, app.id, slug, { listed: true });
      await db()('arcade_players').insert({ account_id: account.id, app_id: app.id });
      if (removedDaysAgo !== null) {
        await db()('arcade_apps')
          .where({ app_id: app.id })
          .update({
            status: 'removed',
            removed_at: new Date(Date.now() - removedDaysAgo * DAY),
            live_release_id: null,
          });
      }
      return app.id as string;
    };
    const old = await game('old-removed', 181);
    const recent = await game('recent-removed', 10);
    const live = await game('still-live', null);
    await db()('images').insert({
      account_id: account.id,
      app_id: old,
      purpose: 'arcade_icon',
      storage_key: 'arcade/icons/old.webp',
      content_type: 'image/webp',
      width: 64,
      height: 64,
      bytes: 100,
      animated: false,
    });
    const [release] = await db()('arcade_releases')
      .insert({ app_id: live, number: 2, status: 'draft', ...releaseColumns() })
      .returning('id');
    const override = (app: string, expiredDaysAgo: number) => ({
      app_id: app,
      url: 'http://localhost:5173/',
      origin: 'http://localhost:5173',
      host: 'localhost:5173',
      loopback: true,
      release_id: release.id,
      set_at: new Date(Date.now() - (expiredDaysAgo + 1) * DAY),
      expires_at: new Date(Date.now() - expiredDaysAgo * DAY),
    });
    await db()('arcade_overrides').insert(override(live, 8));
    await db()('usernames').insert([
      { account_id: account.id, name: 'old_alias', kind: 'alias', expires_at: new Date(Date.now() - DAY) },
      { account_id: account.id, name: 'fresh_alias', kind: 'alias', expires_at: new Date(Date.now() + DAY) },
    ]);
    await ensureSigningKeys(db(), config().secret);
    await rotateSigningKeys(db(), config().secret);
    await db()('signing_keys')
      .where({ state: 'retiring' })
      .update({ retired_at: new Date(Date.now() - 2 * DAY) });

    // Limit windows: two ended (an address's sign-in failures, a key's hour), one still running.
    await db()('rate_limits').insert([
      { key: 'attempt:signin:ip:192.0.2.1', points: 5, expire: Date.now() - 1000 },
      { key: 'allowance:read:some-key', points: 40, expire: Date.now() - DAY },
      { key: 'attempt:signin:ip:192.0.2.2', points: 3, expire: Date.now() + 600_000 },
    ]);

    // Idempotency keys: one past its 24 hours, one still replayed.
    const idempotencyKey = (key: string, createdHoursAgo: number) => ({
      scope: `scope-${key}`,
      account_id: account.id,
      caller: 'session',
      method: 'POST',
      path: '/api/v1/account/apps',
      key,
      fingerprint: 'f'.repeat(64),
      state: 'done',
      status: 201,
      headers: JSON.stringify({}),
      body: 'sealed',
      created_at: new Date(Date.now() - createdHoursAgo * 3_600_000),
      expires_at: new Date(Date.now() + (24 - createdHoursAgo) * 3_600_000),
    });
    await db()('idempotency_keys').insert([idempotencyKey('old-key', 25), idempotencyKey('fresh-key', 1)]);

    // Data events: one delivered 31 days ago (goes, with its attempt), one delivered yesterday, one still
    // pending from 40 days ago (owed to the game: it stays).
    const dataEvent = (daysAgo: number, status: string) => ({
      app_id: live,
      player_id: '00000000-0000-4000-8000-000000000001',
      type: 'grant_revoked',
      status,
      created_at: new Date(Date.now() - daysAgo * DAY),
      delivered_at: status === 'delivered' ? new Date(Date.now() - daysAgo * DAY) : null,
    });
    const events = await db()('arcade_data_events')
      .insert([dataEvent(31, 'delivered'), dataEvent(1, 'delivered'), dataEvent(40, 'pending')])
      .returning('id');
    await db()('arcade_data_event_attempts').insert(
      events.slice(0, 2).map((event: { id: string }, i: number) => ({
        event_id: event.id,
        attempted_at: new Date(Date.now() - (i === 0 ? 31 : 1) * DAY),
        http_status: 204,
        duration_ms: 12,
        outcome: 'delivered',
      })),
    );

    const first = await runOp(['retention', 'purge']);
    expect(first.code, first.output).to.equal(0);
    expect(first.output).to.include(
      'removed 1 game(s) past their evidence time with 1 image(s), 1 expired alias(es), 1 expired development URL(s), 1 retired key(s), 2 ended limit window(s), 1 expired idempotency key(s), 1 data event(s) past 30 days',
    );
    expect(await db()('arcade_data_events').orderBy('created_at').pluck('id')).to.deep.equal([
      events[2].id,
      events[1].id,
    ]);
    expect(await db()('arcade_data_event_attempts').pluck('event_id')).to.deep.equal([events[1].id]);
    expect(await db()('rate_limits').pluck('key')).to.deep.equal(['attempt:signin:ip:192.0.2.2']);
    expect(await db()('idempotency_keys').pluck('key')).to.deep.equal(['fresh-key']);
    expect(await db()('arcade_apps').orderBy('slug').pluck('slug')).to.deep.equal(['recent-removed', 'still-live']);
    expect(await db()('arcade_releases').where({ app_id: old })).to.have.length(0);
    expect(await db()('arcade_listings').where({ app_id: old })).to.have.length(0);
    expect(await db()('arcade_players').where({ app_id: old })).to.have.length(0);
    expect(await db()('images').where({ app_id: old })).to.have.length(0);
    expect(await db()('arcade_releases').where({ app_id: recent })).to.have.length(1);
    // The slug is never free again.
    expect(await db()('arcade_claims').where({ kind: 'slug', value: 'old-removed' })).to.have.length(1);
    expect(await db()('usernames').where({ kind: 'alias' }).pluck('name')).to.deep.equal(['fresh_alias']);
    expect(await db()('arcade_overrides')).to.have.length(0);
    expect(await db()('signing_keys').whereIn('state', ['current', 'next'])).to.have.length(2);

    const second = await runOp(['retention', 'purge']);
    expect(second.code, second.output).to.equal(0);
    expect(second.output).to.include(
      'removed 0 game(s) past their evidence time with 0 image(s), 0 expired alias(es), 0 expired development URL(s), 0 retired key(s), 0 ended limit window(s), 0 expired idempotency key(s), 0 data event(s) past 30 days',
    );
  });

  it('shares the work when two runs overlap: each game and alias is removed once, both succeed', async () => {
    const { account } = await buildAccount({ username: 'overlap_dev' });
    for (const slug of ['gone-one', 'gone-two']) {
      const app = await createApp(db(), account.id, { name: slug });
      await seededGame(account.id, app.id, slug, { listed: true });
      await db()('arcade_apps')
        .where({ app_id: app.id })
        .update({ status: 'removed', removed_at: new Date(Date.now() - 200 * DAY), live_release_id: null });
    }
    await db()('usernames').insert(
      ['gone_a', 'gone_b', 'gone_c'].map((name) => ({
        account_id: account.id,
        name,
        kind: 'alias',
        expires_at: new Date(Date.now() - DAY),
      })),
    );
    const runs = await Promise.all([runOp(['retention', 'purge']), runOp(['retention', 'purge'])]);
    const counted = (pattern: RegExp) =>
      runs.reduce((sum, run) => {
        expect(run.code, run.output).to.equal(0);
        return sum + Number(pattern.exec(run.output)![1]);
      }, 0);
    expect(counted(/removed (\d+) game\(s\)/)).to.equal(2);
    expect(counted(/(\d+) expired alias\(es\)/)).to.equal(3);
    expect(await db()('arcade_apps').whereIn('slug', ['gone-one', 'gone-two'])).to.have.length(0);
    expect(await db()('usernames').whereIn('name', ['gone_a', 'gone_b', 'gone_c'])).to.have.length(0);
  });
});
