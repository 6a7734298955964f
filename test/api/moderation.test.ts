// The moderation queue (DECISIONS: Staff and moderation): who reaches it, its order, resolving a report,
// and the record of every moderator action. Sanctions on accounts are in moderation-accounts.test.ts.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey, signedInClient } from '../helpers/factories.js';
import { staffMember } from '../helpers/moderation.js';
import { namedPerson, review } from '../helpers/people.js';
import { useTestApp } from '../helpers/test-app.js';

describe('moderation: queue and reports', () => {
  useCleanDatabase();
  const app = useTestApp();

  describe('access', () => {
    it('is for staff sessions that passed two-factor: others get 401 or 403', async () => {
      expect((await app.client.get('/api/v1/moderation/reports')).status).to.equal(401);

      const member = await namedPerson(app.client, 'mod_member');
      const asMember = await member.site.get('/api/v1/moderation/reports');
      expect(asMember.status).to.equal(403);
      expect(asMember.body.error.code).to.equal('forbidden');
      expect(asMember.body.error.reason).to.equal(undefined);

      // Even a moderator's key: the routes are session only.
      const keyed = await staffMember(app.client, 'mod_with_key');
      const { token } = await appWithKey(keyed.account.id, ['profile.read']);
      const byKey = await app.client.get('/api/v1/moderation/reports', {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(byKey.status).to.equal(403);
      expect(byKey.body.error.code).to.equal('forbidden');

      const pending = await staffMember(app.client, 'mod_no_2fa', { passTwoFactor: false });
      const owing = await pending.site.get('/api/v1/moderation/reports');
      expect(owing.status).to.equal(403);
      expect(owing.body.error).to.include({ code: 'forbidden', reason: 'mfa_required' });

      // Two-factor must have been passed, not merely be off.
      const withoutTwoFactor = await signedInClient(app.client);
      await db()('accounts').where({ id: withoutTwoFactor.account.id }).update({ role: 'moderator' });
      const off = await withoutTwoFactor.site.post('/api/v1/moderation/accounts/x/publisher', { blocked: true });
      expect(off.status).to.equal(403);
      expect(off.body.error.reason).to.equal('mfa_required');

      const admin = await staffMember(app.client, 'mod_admin', { role: 'admin' });
      expect((await admin.site.get('/api/v1/moderation/reports')).status).to.equal(200);
      expect((await keyed.site.get('/api/v1/moderation/actions')).status).to.equal(200);
    });
  });

  describe('GET /moderation/reports', () => {
    let moderator: Awaited<ReturnType<typeof staffMember>>;
    const ids: Record<string, string> = {};

    before(async () => {
      moderator = await staffMember(app.client, 'queue_mod');
      const reporter = await namedPerson(app.client, 'queue_reporter');
      const target = await namedPerson(app.client, 'queue_target');
      // Filed in an order unlike the queue's; created_at is then set so "oldest first" is known.
      const filed: Array<[string, string, number]> = [
        ['spam_old', 'SPAM', 50],
        ['violence_new', 'VIOLENCE', 5],
        ['privacy_mid', 'PRIVACY', 30],
        ['child_old', 'CHILD_SAFETY', 40],
        ['self_harm_mid', 'SELF_HARM', 20],
        ['resolved_urgent', 'CHILD_SAFETY', 60],
      ];
      for (const [name, reason, minutesAgo] of filed) {
        const written = await review(target.account.id, { body: name });
        const res = await reporter.site.post('/api/v1/reports', {
          on: 'REVIEW',
          username: 'queue_target',
          id: written.id,
          reason,
        });
        expect(res.status, res.text).to.equal(201);
        const [row] = await db()('reports')
          .where({ target_id: written.id })
          .update({ created_at: new Date(Date.now() - minutesAgo * 60_000) })
          .returning('id');
        ids[name] = row.id;
      }
      // SCAM is only for Arcade games, which cannot be reported yet (no Arcade model): stored directly.
      const [scam] = await db()('reports')
        .insert({
          reporter_id: reporter.account.id,
          target_kind: 'ARCADE_APP',
          reason: 'SCAM',
          target_id: '00000000-0000-4000-8000-00000000a001',
          snapshot: {},
          created_at: new Date(Date.now() - 10 * 60_000),
        })
        .returning('id');
      ids.scam = scam.id;
      await db()('reports').where({ id: ids.resolved_urgent }).update({
        status: 'resolved',
        outcome: 'no_action',
        resolved_at: new Date(),
        resolved_by: moderator.account.id,
      });
    });

    const order = (res: { body: { data: Array<{ id: string }> } }) =>
      res.body.data.map((item) => Object.keys(ids).find((name) => ids[name] === item.id));

    it('lists open reports first, by priority, oldest first; then the resolved ones', async () => {
      const res = await moderator.site.get('/api/v1/moderation/reports');
      expect(res.status).to.equal(200);
      expect(order(res)).to.deep.equal([
        'child_old',
        'self_harm_mid',
        'violence_new',
        'scam',
        'spam_old',
        'privacy_mid',
        'resolved_urgent',
      ]);
      expect(res.body.page).to.deep.equal({ number: 1, size: 50, total_items: 7, total_pages: 1, has_more: false });
      expect(res.headers.get('cache-control')).to.equal('no-store');
    });

    it('describes each report: who reported, the target, its snapshot and priority', async () => {
      const res = await moderator.site.get('/api/v1/moderation/reports?status=open');
      const first = res.body.data[0];
      expect(first).to.include({
        id: ids.child_old,
        on: 'REVIEW',
        reason: 'CHILD_SAFETY',
        priority: 0,
        status: 'open',
      });
      expect(first.reporter.username).to.equal('queue_reporter');
      expect(first.target).to.include({ username: 'queue_target' });
      expect(first.snapshot).to.include({ body: 'child_old' });
      expect(first).to.include({ outcome: null, resolved_by: null, resolved_at: null });
      expect(res.body.data.map((item: { status: string }) => item.status)).to.not.include('resolved');
      expect(res.body.data).to.have.length(6);
    });

    it('filters by status and checks its query', async () => {
      const resolved = await moderator.site.get('/api/v1/moderation/reports?status=resolved');
      expect(order(resolved)).to.deep.equal(['resolved_urgent']);
      expect(resolved.body.data[0].resolved_by.username).to.equal('queue_mod');
      for (const query of ['status=closed', 'page=0', 'page=1001']) {
        const res = await moderator.site.get(`/api/v1/moderation/reports?${query}`);
        expect(res.status, query).to.equal(400);
        expect(res.body.error.field).to.equal(query.split('=')[0]);
      }
    });

    it('orders in the database, over the queue index, with no sort step', async () => {
      const plan = await db().transaction(async (trx) => {
        // The table is tiny here; without this the planner would rightly read it whole.
        await trx.raw('SET LOCAL enable_seqscan = off');
        const { rows } = await trx.raw(
          `EXPLAIN SELECT id FROM reports WHERE status = 'open' ORDER BY status, priority, created_at, id LIMIT 50`,
        );
        return rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
      });
      expect(plan).to.include('reports_queue');
      expect(plan).not.to.match(/\bSort\b/);
    });
  });

  describe('POST /moderation/reports/{id}/resolve', () => {
    it('resolves an open report once, with its outcome and note, and records the action', async () => {
      const moderator = await staffMember(app.client, 'resolve_mod');
      const reporter = await namedPerson(app.client, 'resolve_reporter');
      await namedPerson(app.client, 'resolve_target');
      await reporter.site.post('/api/v1/reports', { on: 'PROFILE', username: 'resolve_target', reason: 'SPAM' });
      const report = await db()('reports').where({ reporter_id: reporter.account.id }).first();
      const path = `/api/v1/moderation/reports/${report.id}/resolve`;

      const done = await moderator.site.post(path, { outcome: 'warned', note: 'First warning sent' });
      expect(done.status).to.equal(200);
      expect(done.body.data).to.include({
        id: report.id,
        status: 'resolved',
        outcome: 'warned',
        note: 'First warning sent',
      });
      const again = await moderator.site.post(path, { outcome: 'no_action' });
      expect(again.status).to.equal(409);
      expect(again.body.error).to.include({ code: 'conflict', reason: 'already_resolved' });

      const stored = await db()('reports').where({ id: report.id }).first();
      expect(stored).to.include({ status: 'resolved', outcome: 'warned', resolved_by: moderator.account.id });
      const actions = await db()('moderator_actions').where({ subject_kind: 'report', subject_id: report.id });
      expect(actions).to.have.length(1);
      expect(actions[0]).to.include({ moderator_id: moderator.account.id, action: 'resolve_report' });
      expect(actions[0].details).to.deep.equal({ outcome: 'warned', note: 'First warning sent' });
    });

    it('answers 404 for an unknown or malformed id and 400 for a bad outcome or note', async () => {
      const moderator = await staffMember(app.client, 'resolve_mod_two');
      const unknown = '/api/v1/moderation/reports/00000000-0000-4000-8000-000000000000/resolve';
      expect((await moderator.site.post(unknown, { outcome: 'no_action' })).status).to.equal(404);
      expect(
        (await moderator.site.post('/api/v1/moderation/reports/42/resolve', { outcome: 'no_action' })).status,
      ).to.equal(404);
      const refusals: Array<[Record<string, unknown>, string]> = [
        [{}, 'outcome'],
        [{ outcome: 'deleted' }, 'outcome'],
        [{ outcome: 'no_action', note: 'n'.repeat(1001) }, 'note'],
        [{ outcome: 'no_action', extra: true }, 'extra'],
      ];
      for (const [body, field] of refusals) {
        const res = await moderator.site.post(unknown, body);
        expect(res.status).to.equal(400);
        expect(res.body.error).to.include({ code: 'invalid_request', field });
      }
    });
  });

  describe('GET /moderation/actions', () => {
    it('lists every action newest first, with the moderator’s name, paged', async () => {
      const moderator = await staffMember(app.client, 'audit_mod');
      const res = await moderator.site.get('/api/v1/moderation/actions');
      expect(res.status).to.equal(200);
      const total = await db()('moderator_actions').count<{ n: string }[]>('* as n');
      expect(res.body.page.total_items).to.equal(Number(total[0].n));
      const times = res.body.data.map((item: { created_at: string }) => item.created_at);
      expect(times).to.deep.equal([...times].sort().reverse());
      const resolved = res.body.data.find((item: { action: string }) => item.action === 'resolve_report');
      expect(resolved.moderator.username).to.be.a('string');
      expect(resolved.subject.kind).to.equal('report');
      expect((await moderator.site.get('/api/v1/moderation/actions?page=0')).status).to.equal(400);
    });
  });
});
