// The service's own watch over live games (spec: App Arcade record `notice`, hidden for invariant or
// provider_change): the schedule that queues due games through url.check, and what checks of the live
// release do, whoever asked for them (the schedule, a report, the developer), against local https
// developer hosts with the real url.check job.
import { expect } from 'chai';
import { sweepRechecks } from '../../shared/arcade/rechecks.js';
import { slotOffsetSeconds } from '../../shared/arcade/recheck-rules.js';
import { db } from '../../shared/platform/db/knex.js';
import { createApp } from '../../shared/keys/apps.js';
import { arcadeDeveloper, enabledGame, listingBody, releaseBody, seededGame, serveGame } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { signedInClient } from '../helpers/factories.js';
import { startFakeHost, type FakeHost } from '../helpers/fake-host.js';
import { useJobWorker } from '../helpers/job-worker.js';
import { staffMember } from '../helpers/moderation.js';
import { useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

const DAY = 86_400_000;

/** The url.check jobs the schedule queued, by release id. */
async function scheduledJobs(): Promise<string[]> {
  const { rows } = await db().raw(
    "SELECT data->>'release_id' AS release_id FROM pgboss.job WHERE name = 'url.check' AND data->>'cause' = 'schedule'",
  );
  return rows.map((row: { release_id: string }) => row.release_id).sort();
}

describe('Arcade: the service re-checks live games', function () {
  this.timeout(60000);

  describe('the schedule', () => {
    useCleanDatabase();
    const app = useTestApp();

    /** A listed game straight in the database, due (or not) as told; answers its live release id. */
    async function game(slug: string, columns: Record<string, unknown> = {}) {
      const owner = await signedInClient(app.client);
      const made = await createApp(db(), owner.account.id, { name: slug });
      await seededGame(owner.account.id, made.id, slug, { listed: true });
      if (Object.keys(columns).length > 0) await db()('arcade_apps').where({ app_id: made.id }).update(columns);
      return (await db()('arcade_apps').where({ app_id: made.id }).first()).live_release_id as string;
    }
    const past = () => new Date(Date.now() - 60_000);

    it('queues the watched games that are due, once, at most a batch and within the queue’s room', async () => {
      const due = await game('due-game', { recheck_due_at: past() });
      const never = await game('never-scheduled');
      const hiddenByChecks = await game('invariant-game', {
        status: 'hidden',
        notice_kind: 'hidden',
        notice_reason: 'invariant',
        notice_at: new Date(),
        recheck_due_at: past(),
      });
      await game('later-game', { recheck_due_at: new Date(Date.now() + DAY) });
      await game('reported-game', {
        status: 'hidden',
        notice_kind: 'hidden',
        notice_reason: 'reports',
        recheck_due_at: past(),
      });
      await game('moved-game', {
        status: 'hidden',
        notice_kind: 'hidden',
        notice_reason: 'provider_change',
        recheck_due_at: past(),
      });
      await game('flagged-game', { notice_kind: 'flagged', recheck_due_at: past() });
      await game('suspended-game', { status: 'suspended', notice_kind: 'suspended', recheck_due_at: past() });

      expect(await sweepRechecks(db(), { batch: 2 })).to.equal(2);
      expect(await sweepRechecks(db(), { batch: 2 })).to.equal(1);
      expect(await scheduledJobs()).to.deep.equal([due, never, hiddenByChecks].sort());
      // Queued games are leased: the next sweeps leave them alone.
      expect(await sweepRechecks(db())).to.equal(0);
      expect(await scheduledJobs()).to.have.length(3);

      // Due again (their leases ended without a check): three wait already, so a room of 4 takes one more.
      await db()('arcade_apps')
        .whereIn('live_release_id', [due, never, hiddenByChecks])
        .update({ recheck_due_at: past() });
      expect(await sweepRechecks(db(), { room: 4 })).to.equal(1);
      expect(await sweepRechecks(db(), { room: 4 })).to.equal(0);
      expect(await scheduledJobs()).to.have.length(4);
    });
  });

  describe('checks of the live release', () => {
    useCleanDatabase();
    useJobWorker(['url.check']);
    const app = useTestApp();
    const hosts: FakeHost[] = [];
    after(() => Promise.all(hosts.map((h) => h.close())));
    let moderator: Awaited<ReturnType<typeof staffMember>>;
    let player: Awaited<ReturnType<typeof signedInClient>>;

    before(async () => {
      moderator = await staffMember(app.client, 'mod_rechecks');
      player = await signedInClient(app.client);
    });

    const NETLIFY = { 'content-type': 'text/html; charset=utf-8', server: 'Netlify', 'x-nf-request-id': '1' };

    /** A game made live through the routes on a developer host of its own. */
    async function liveGame(slug: string) {
      const host = await startFakeHost();
      hosts.push(host);
      const dev = await arcadeDeveloper(app.client);
      const base = `/api/v1/account/apps/${dev.app.id}/arcade`;
      await enabledGame(dev, slug);
      serveGame(host, dev.app.id);
      expect((await dev.site.put(`${base}/listing`, listingBody())).status).to.equal(200);
      expect((await dev.site.post(`${base}/listing/submit`)).status).to.equal(200);
      const listing = await db()('arcade_listings').where({ app_id: dev.app.id, status: 'submitted' }).first();
      await moderator.site.post(`/api/v1/moderation/arcade/listings/${listing.id}`, { decision: 'approve' });
      const game = { dev, base, host, slug, appId: dev.app.id as string, releaseId: '' };
      game.releaseId = await approvedRelease(game);
      const live = await dev.site.post(`${base}/releases/${game.releaseId}/live`);
      expect(live.status, live.text).to.equal(200);
      expect(live.body.data.app).to.deep.include({ status: 'listed', notice: null });
      return game;
    }
    type Game = Awaited<ReturnType<typeof liveGame>>;

    async function approvedRelease(game: Pick<Game, 'dev' | 'base' | 'host'>) {
      const created = await game.dev.site.post(`${game.base}/releases`, releaseBody(game.host));
      expect(created.status, created.text).to.equal(201);
      const id = created.body.data.release.id as string;
      const submitted = await game.dev.site.post(`${game.base}/releases/${id}/submit`);
      expect(submitted.status, submitted.text).to.equal(200);
      await moderator.site.post(`/api/v1/moderation/arcade/releases/${id}`, { decision: 'approve' });
      return id;
    }

    const checksOf = (game: Game) =>
      db()('arcade_checks').where({ app_id: game.appId }).orderBy('created_at').select('cause', 'passed');

    /** The developer's own check of the live release (the route waits for it). */
    async function ownCheck(game: Game) {
      const res = await game.dev.site.post(`${game.base}/releases/${game.releaseId}/check`);
      expect(res.status, res.text).to.equal(200);
      return res.body.data.check;
    }

    /** The schedule's check: this game alone is due, the sweep queues it, the worker stores it. */
    async function scheduledCheck(game: Game) {
      const before = (await checksOf(game)).length;
      await db()('arcade_apps').update({ recheck_due_at: new Date(Date.now() + DAY) });
      await db()('arcade_apps')
        .where({ app_id: game.appId })
        .update({ recheck_due_at: new Date(Date.now() - 1000) });
      expect(await sweepRechecks(db())).to.equal(1);
      const checks = await until(async () => {
        const now = await checksOf(game);
        return now.length > before && now;
      });
      expect(checks.at(-1)!.cause).to.equal('schedule');
      return checks.at(-1)!;
    }

    const record = async (game: Game) => (await game.dev.site.get(game.base)).body.data.app;
    const launch = (game: Game) => player.site.post(`/api/v1/arcade/apps/${game.slug}/launch`);
    const breakHost = (game: Game) => {
      game.host.routes['/play/'] = { status: 503, headers: { 'content-type': 'text/html' }, body: 'down' };
    };
    const hiddenEvents = async (game: Game) =>
      (await db()('arcade_events').where({ app_id: game.appId, kind: 'hidden' }).orderBy('created_at')).map(
        (e) => e.data,
      );

    it('keeps a check’s bookkeeping out of the game’s and the release’s updated_at', async () => {
      const game = await liveGame('quiet-check');
      const stamps = async () => ({
        game: (await db()('arcade_apps').where({ app_id: game.appId }).first('updated_at')).updated_at.getTime(),
        release: (await db()('arcade_releases').where({ id: game.releaseId }).first('updated_at')).updated_at.getTime(),
      });
      const before = await stamps();
      expect((await scheduledCheck(game)).passed).to.equal(true);
      // The check was recorded on the release and the game's next one scheduled, and neither counts as a change.
      const [latest] = await db()('arcade_checks').where({ app_id: game.appId }).orderBy('created_at', 'desc').limit(1);
      expect((await db()('arcade_releases').where({ id: game.releaseId }).first()).last_check_id).to.equal(latest.id);
      expect((await db()('arcade_apps').where({ app_id: game.appId }).first()).recheck_due_at.getTime()).to.be.above(
        Date.now(),
      );
      expect(await stamps()).to.deep.equal(before);
    });

    it('hides a game whose checks fail twice in a row for invariant, and two passes bring it back', async () => {
      const game = await liveGame('broken-rocks');
      const row = await db()('arcade_apps').where({ app_id: game.appId }).first();
      // Going live started the daily check at the game's own time of day.
      expect((new Date(row.recheck_due_at).getTime() % DAY) / 1000).to.equal(slotOffsetSeconds(game.appId));
      breakHost(game);

      expect(await scheduledCheck(game)).to.deep.equal({ cause: 'schedule', passed: false });
      expect(await record(game)).to.deep.include({ status: 'listed', notice: null });
      expect((await launch(game)).status).to.equal(200);

      await scheduledCheck(game);
      const hidden = await record(game);
      expect(hidden.status).to.equal('hidden');
      expect(hidden.notice).to.deep.include({ kind: 'hidden', reason: 'invariant' });
      expect(hidden.notice.at).to.be.a('string');
      expect(hidden.events[0]).to.deep.include({ kind: 'hidden', data: { reason: 'invariant' } });
      const refused = await launch(game);
      expect([refused.status, refused.body.error.reason]).to.deep.equal([403, 'not_playable']);
      expect((await app.client.get(`/api/v1/arcade/apps/${game.slug}`)).status).to.equal(404);
      // A third failure changes nothing more.
      await scheduledCheck(game);
      expect(await hiddenEvents(game)).to.have.length(1);

      serveGame(game.host, game.appId);
      expect((await ownCheck(game)).passed).to.equal(true);
      expect((await record(game)).status).to.equal('hidden');
      await scheduledCheck(game);
      const back = await record(game);
      expect(back).to.deep.include({ status: 'listed', notice: null });
      expect(back.events[0]).to.deep.include({ kind: 'restored', data: { reason: 'invariant' } });
      expect((await launch(game)).status).to.equal(200);

      expect((await checksOf(game)).map((c) => c.cause)).to.deep.equal([
        'submit',
        'live',
        'schedule',
        'schedule',
        'schedule',
        'check',
        'schedule',
      ]);
      // The day's 20 counted the developer's three checks only: the schedule's are the service's own work.
      const spent = await db()('rate_limits')
        .where({ key: `attempt:arcade-check:${game.appId}` })
        .first();
      expect(spent.points).to.equal(3);
      const mails = await db()('email_outbox').where({ to_address: game.dev.email, kind: 'arcade.notice' });
      expect(mails.map((m) => m.subject)).to.include.members([
        'Your Arcade game broken-rocks: hidden',
        'Your Arcade game broken-rocks: restored',
      ]);
    });

    it('counts a report’s re-check toward the two in a row', async () => {
      const game = await liveGame('reported-rocks');
      breakHost(game);
      await scheduledCheck(game);
      expect((await record(game)).status).to.equal('listed');
      const reported = await player.site.post('/api/v1/reports', { on: 'ARCADE_APP', id: game.appId, reason: 'SCAM' });
      expect(reported.status).to.equal(201);
      await until(async () => (await checksOf(game)).some((c) => c.cause === 'report'));
      const hidden = await record(game);
      expect([hidden.status, hidden.notice.reason]).to.deep.equal(['hidden', 'invariant']);
    });

    it('hides a game that moved to another hosting provider until a release is made live again', async () => {
      const game = await liveGame('moved-rocks');
      game.host.routes['/play/'] = { headers: NETLIFY, body: '<!doctype html><title>Rocks</title>' };
      const moved = await ownCheck(game);
      expect(moved).to.deep.include({ passed: true, provider: 'netlify' });
      const hidden = await record(game);
      expect([hidden.status, hidden.notice.kind, hidden.notice.reason]).to.deep.equal([
        'hidden',
        'hidden',
        'provider_change',
      ]);
      expect(hidden.events[0].data).to.deep.equal({ reason: 'provider_change', pinned: 'unknown', now: 'netlify' });
      expect((await launch(game)).status).to.equal(403);

      // Passing checks do not bring it back, and the schedule leaves it alone.
      await ownCheck(game);
      await ownCheck(game);
      expect((await record(game)).notice.reason).to.equal('provider_change');
      await db()('arcade_apps')
        .where({ app_id: game.appId })
        .update({ recheck_due_at: new Date(Date.now() - 1000) });
      expect(await sweepRechecks(db())).to.equal(0);

      // A new release, checked and approved where the game is now, made live: its check pins the provider.
      const next = await approvedRelease(game);
      const live = await game.dev.site.post(`${game.base}/releases/${next}/live`);
      expect(live.status, live.text).to.equal(200);
      expect(live.body.data.app).to.deep.include({ status: 'listed', notice: null });
      expect(live.body.data.app.events.map((e: { kind: string }) => e.kind)).to.include('restored');
      game.releaseId = next;
      expect((await ownCheck(game)).provider).to.equal('netlify');
      expect((await record(game)).status).to.equal('listed');
      expect((await launch(game)).status).to.equal(200);
    });

    it('lets a moderator’s restore accept the new provider, which the next check pins', async () => {
      const game = await liveGame('restored-rocks');
      game.host.routes['/play/'] = { headers: NETLIFY, body: '<!doctype html><title>Rocks</title>' };
      await ownCheck(game);
      expect((await record(game)).notice.reason).to.equal('provider_change');
      const restored = await moderator.site.post(`/api/v1/moderation/arcade/apps/${game.appId}`, { action: 'restore' });
      expect(restored.status, restored.text).to.equal(200);
      expect((await launch(game)).status).to.equal(200);
      await ownCheck(game);
      expect(await db()('arcade_apps').where({ app_id: game.appId }).first()).to.deep.include({
        status: 'listed',
        pinned_provider: 'netlify',
      });
      // Moving again is a change from the accepted provider.
      serveGame(game.host, game.appId);
      await ownCheck(game);
      expect((await record(game)).notice).to.deep.include({ kind: 'hidden', reason: 'provider_change' });
    });

    it('never lifts a moderator’s hiding, and counts again from a moderator’s restore', async () => {
      const game = await liveGame('moderated-rocks');
      const action = (body: Record<string, unknown>) =>
        moderator.site.post(`/api/v1/moderation/arcade/apps/${game.appId}`, body);
      expect((await action({ action: 'hide', reason: 'invariant' })).status).to.equal(200);
      await ownCheck(game);
      await scheduledCheck(game);
      expect((await record(game)).notice).to.deep.include({ kind: 'hidden', reason: 'invariant' });
      expect((await action({ action: 'restore' })).status).to.equal(200);

      breakHost(game);
      await ownCheck(game);
      await ownCheck(game);
      expect((await record(game)).notice.reason).to.equal('invariant');
      // Restored by a moderator while the host is still down: the failures before do not count.
      expect((await action({ action: 'restore' })).status).to.equal(200);
      await ownCheck(game);
      expect((await record(game)).notice).to.equal(null);
      await ownCheck(game);
      expect((await record(game)).notice.reason).to.equal('invariant');
    });

    it('hides once when failing checks arrive together', async () => {
      const game = await liveGame('racing-rocks');
      breakHost(game);
      await scheduledCheck(game);
      const answers = await Promise.all(
        [1, 2, 3].map(() => game.dev.site.post(`${game.base}/releases/${game.releaseId}/check`)),
      );
      expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200]);
      expect(await hiddenEvents(game)).to.deep.equal([{ reason: 'invariant' }]);
      const mails = await db()('email_outbox').where({
        to_address: game.dev.email,
        subject: 'Your Arcade game racing-rocks: hidden',
      });
      expect(mails).to.have.length(1);
    });
  });
});
