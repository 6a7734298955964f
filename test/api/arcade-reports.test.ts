// Reports on Arcade games: the target and its snapshot (store page, live release, origin, latest check),
// the hourly re-check whatever the number of reports, and three reporters hiding the game until a
// moderator decides.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { createApp } from '../../shared/keys/apps.js';
import { seededGame } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { signedInClient } from '../helpers/factories.js';
import { staffMember } from '../helpers/moderation.js';
import { useTestApp } from '../helpers/test-app.js';

describe('Arcade: reports on games', () => {
  useCleanDatabase();
  const app = useTestApp();

  async function listedGame(slug: string) {
    const developer = await signedInClient(app.client);
    const made = await createApp(db(), developer.account.id, { name: slug });
    await seededGame(developer.account.id, made.id, slug, { listed: true, name: 'Reported Game' });
    const game = await db()('arcade_apps').where({ app_id: made.id }).first();
    const [check] = await db()('arcade_checks')
      .insert({
        app_id: made.id,
        release_id: game.live_release_id,
        cause: 'live',
        passed: true,
        result: JSON.stringify({ passed: true, provider: 'unknown' }),
      })
      .returning('id');
    await db()('arcade_releases').where({ id: game.live_release_id }).update({ last_check_id: check.id });
    return { developer, appId: made.id as string };
  }

  const report = (
    who: { site: { post: (p: string, b: unknown) => Promise<{ status: number; body: never }> } },
    appId: string,
    reason = 'SCAM',
  ) => who.site.post('/api/v1/reports', { on: 'ARCADE_APP', id: appId, reason });

  const recheckJobs = async (appId: string) => {
    const { rows } = await db().raw(
      "SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'url.check' AND data->>'cause' = 'report' AND singleton_key = ?",
      [`recheck:${appId}`],
    );
    return rows[0].n as number;
  };

  it('keeps a snapshot of what players got, and refuses one’s own game and removed ones', async () => {
    const { developer, appId } = await listedGame('snap-game');
    const reporter = await signedInClient(app.client);
    const res = await report(reporter, appId);
    expect(res.status).to.equal(201);
    const stored = await db()('reports').where({ reporter_id: reporter.account.id }).first();
    expect(stored.target_account_id).to.equal(developer.account.id);
    expect(stored.snapshot).to.deep.include({ slug: 'snap-game', name: 'Reported Game', instance: null });
    expect(stored.snapshot.release).to.deep.include({ number: 1, origin: 'https://snap-game.example.com' });
    expect(stored.snapshot.latest_check).to.deep.include({ passed: true });
    const own = await report(developer, appId);
    expect([own.status, (own.body as { error: { field: string } }).error.field]).to.deep.equal([400, 'id']);
    await db()('arcade_apps').where({ app_id: appId }).update({ status: 'removed' });
    const other = await signedInClient(app.client);
    expect((await report(other, appId)).status).to.equal(404);
  });

  it('re-checks at most once an hour, and three reporters hide the game until a moderator restores it', async () => {
    const { developer, appId } = await listedGame('hide-game');
    const reporters = await Promise.all([1, 2, 3, 4].map(() => signedInClient(app.client)));
    expect((await report(reporters[0], appId)).status).to.equal(201);
    // The same person twice still counts once (and the second is a 409 while the first is open).
    expect((await report(reporters[0], appId)).status).to.equal(409);
    expect((await report(reporters[1], appId, 'HATE_SPEECH')).status).to.equal(201);
    let game = await db()('arcade_apps').where({ app_id: appId }).first();
    expect(game.notice_kind).to.equal(null);
    expect((await app.client.get('/api/v1/arcade/apps/hide-game')).status).to.equal(200);
    expect((await report(reporters[2], appId)).status).to.equal(201);
    game = await db()('arcade_apps').where({ app_id: appId }).first();
    expect([game.status, game.notice_kind, game.notice_reason]).to.deep.equal(['hidden', 'hidden', 'reports']);
    expect((await app.client.get('/api/v1/arcade/apps/hide-game')).status).to.equal(404);
    expect((await report(reporters[3], appId)).status).to.equal(201);
    expect(await recheckJobs(appId)).to.equal(1);
    // An hour later (the first re-check done), the next report asks again.
    await db().raw("UPDATE pgboss.job SET state = 'completed' WHERE singleton_key = ?", [`recheck:${appId}`]);
    await db()('arcade_apps')
      .where({ app_id: appId })
      .update({ report_recheck_at: new Date(Date.now() - 3_601_000) });
    const late = await signedInClient(app.client);
    expect((await report(late, appId)).status).to.equal(201);
    expect(await recheckJobs(appId)).to.equal(2);
    const mails = await db()('email_outbox').where({ to_address: developer.email, kind: 'arcade.notice' });
    expect(mails.map((m) => m.subject)).to.deep.equal(['Your Arcade game hide-game: hidden']);

    const moderator = await staffMember(app.client, 'mod_reports');
    await moderator.site.post(`/api/v1/moderation/arcade/apps/${appId}`, { action: 'restore' });
    expect((await app.client.get('/api/v1/arcade/apps/hide-game')).status).to.equal(200);
  });
});
