// Moderators acting on accounts (DECISIONS: infractions and the publisher block) and what a suspension
// does: the account reads, its keys and sessions stop writing, and GET /account/state says why.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import { staffMember } from '../helpers/moderation.js';
import { namedPerson } from '../helpers/people.js';
import { useTestApp } from '../helpers/test-app.js';

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe('moderation: accounts', () => {
  useCleanDatabase();
  const app = useTestApp();

  let moderator: Awaited<ReturnType<typeof staffMember>>;
  before(async () => {
    moderator = await staffMember(app.client, 'acct_mod');
  });

  const infract = (accountId: string, body: Record<string, unknown>) =>
    moderator.site.post(`/api/v1/moderation/accounts/${accountId}/infractions`, body);

  describe('POST /moderation/accounts/{id}/infractions', () => {
    it('adds infractions the account sees in GET /account/state, each recorded as an action', async () => {
      const target = await namedPerson(app.client, 'acct_warned');
      const warned = await infract(target.account.id, { reason: 'Aviso', details: 'Leia as regras' });
      expect(warned.status).to.equal(201);
      expect(warned.body.data).to.include({
        account_id: target.account.id,
        reason: 'Aviso',
        details: 'Leia as regras',
        expires_at: null,
      });
      let state = (await target.site.get('/api/v1/account/state')).body.data;
      expect(state).to.include({ suspended: false, state: null, infractions: 1 });

      const until = inDays(7);
      const suspended = await infract(target.account.id, { reason: 'Suspensão', expires_at: until });
      expect(suspended.status).to.equal(201);
      state = (await target.site.get('/api/v1/account/state')).body.data;
      expect(state).to.include({ suspended: true, state: 'suspended', infractions: 2 });
      expect(state.infraction_history[0]).to.include({ reason: 'Suspensão', expires_at: until, details: null });
      expect(state.infraction_history[1]).to.include({ reason: 'Aviso', details: 'Leia as regras' });

      const stored = await db()('infractions').where({ account_id: target.account.id });
      expect(stored.every((row) => row.created_by === moderator.account.id)).to.equal(true);
      const actions = await db()('moderator_actions').where({ subject_id: target.account.id }).orderBy('created_at');
      expect(actions.map((row) => row.action)).to.deep.equal(['add_infraction', 'add_infraction']);
      expect(actions[1]).to.include({ moderator_id: moderator.account.id, subject_kind: 'account' });
      expect(actions[1].details).to.include({ reason: 'Suspensão' });
    });

    it('bans without an end: state banned', async () => {
      const target = await namedPerson(app.client, 'acct_banned');
      expect((await infract(target.account.id, { reason: 'Banimento permanente' })).status).to.equal(201);
      const state = (await target.site.get('/api/v1/account/state')).body.data;
      expect(state).to.include({ suspended: true, state: 'banned' });
    });

    it('checks the end: required for Suspensão, refused for Banimento, never in the past', async () => {
      const target = await namedPerson(app.client, 'acct_rules');
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ reason: 'Suspensão' }, 'expires_at', 'missing'],
        [{ reason: 'Suspensão', expires_at: null }, 'expires_at', 'missing'],
        [{ reason: 'Banimento permanente', expires_at: inDays(3) }, 'expires_at', 'not_allowed'],
        [{ reason: 'Aviso', expires_at: inDays(-1) }, 'expires_at', 'out_of_range'],
        [{ reason: 'Suspensão', expires_at: 'next week' }, 'expires_at', 'bad_format'],
        [{ reason: 'Suspension', expires_at: inDays(3) }, 'reason', 'not_allowed'],
        [{ reason: 'Aviso', details: 'd'.repeat(1001) }, 'details', 'too_long'],
        [{ reason: 'Aviso', note: 'x' }, 'note', 'unknown_field'],
      ];
      for (const [body, field, reason] of cases) {
        const res = await infract(target.account.id, body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error).to.include({ code: 'invalid_request', field, reason });
      }
      expect(await db()('infractions').where({ account_id: target.account.id })).to.have.length(0);
    });

    it('answers 404 for an unknown or malformed account id and 400 for the moderator’s own', async () => {
      expect((await infract('00000000-0000-4000-8000-000000000000', { reason: 'Aviso' })).status).to.equal(404);
      expect((await infract('acct_mod', { reason: 'Aviso' })).status).to.equal(404);
      const own = await infract(moderator.account.id, { reason: 'Aviso' });
      expect(own.status).to.equal(400);
      expect(own.body.error.field).to.equal('id');
    });
  });

  describe('a suspended account', () => {
    it('keeps reading with its key but gets 403 suspended on every write, until the suspension ends', async () => {
      const target = await namedPerson(app.client, 'acct_susp_key');
      const { token } = await appWithKey(target.account.id, ['profile.read', 'profile.write']);
      const headers = { authorization: `Bearer ${token}` };
      expect((await infract(target.account.id, { reason: 'Suspensão', expires_at: inDays(2) })).status).to.equal(201);

      const write = await app.client.patch('/api/v1/profile', { bio: 'still here' }, { headers });
      expect(write.status).to.equal(403);
      expect(write.body.error).to.include({ code: 'forbidden', reason: 'suspended' });
      expect(write.headers.get('x-ratelimit-resource')).to.equal('write');
      const reported = await app.client.post(
        '/api/v1/reports',
        { on: 'PROFILE', username: 'acct_mod', reason: 'SPAM' },
        { headers },
      );
      expect(reported.body.error.reason).to.equal('suspended');
      expect((await app.client.get('/api/v1/profile', { headers })).status).to.equal(200);
      expect((await app.client.get('/api/v1/me', { headers })).status).to.equal(200);

      // An ended suspension no longer counts.
      await db()('infractions')
        .where({ account_id: target.account.id })
        .update({ expires_at: new Date(Date.now() - 1000) });
      expect((await app.client.patch('/api/v1/profile', { bio: 'back' }, { headers })).status).to.equal(200);
    });

    it('keeps reading, ending sessions and removing with its session, but cannot create or change', async () => {
      const target = await namedPerson(app.client, 'acct_susp_site');
      expect((await infract(target.account.id, { reason: 'Banimento permanente' })).status).to.equal(201);

      const patch = await target.site.patch('/api/v1/profile', { bio: 'nope' });
      expect(patch.status).to.equal(403);
      expect(patch.body.error.reason).to.equal('suspended');
      expect((await target.site.put('/api/v1/social/following/acct_mod')).body.error.reason).to.equal('suspended');
      expect((await target.site.post('/api/v1/account/apps', { name: 'new' })).body.error.reason).to.equal('suspended');

      const state = await target.site.get('/api/v1/account/state');
      expect(state.status).to.equal(200);
      expect(state.body.data.state).to.equal('banned');
      expect((await target.site.get('/api/v1/profile')).status).to.equal(200);
      // Removing is always allowed: the layout reset, and ending its own session (signing out).
      expect((await target.site.delete('/api/v1/profile/layout')).status).to.equal(200);
      const ended = await target.site.delete(`/api/v1/account/sessions/${target.sessionId}`);
      expect(ended.status).to.equal(200);
      expect(ended.body.data).to.include({ ended: true, current: true });
    });

    it('leaves a warned account free to write', async () => {
      const target = await namedPerson(app.client, 'acct_only_warned');
      await infract(target.account.id, { reason: 'Aviso' });
      expect((await target.site.patch('/api/v1/profile', { bio: 'fine' })).status).to.equal(200);
    });
  });

  describe('POST /moderation/accounts/{id}/publisher', () => {
    it('stores the block, lifts it, and records both', async () => {
      const target = await namedPerson(app.client, 'acct_publisher');
      const path = `/api/v1/moderation/accounts/${target.account.id}/publisher`;
      const blocked = await moderator.site.post(path, { blocked: true });
      expect(blocked.status).to.equal(200);
      expect(blocked.body.data).to.include({ account_id: target.account.id, blocked: true });
      expect(blocked.body.data.blocked_at).to.be.a('string');
      expect((await moderator.site.post(path, { blocked: true })).status).to.equal(200);
      const row = await db()('publisher_blocks').where({ account_id: target.account.id }).first();
      expect(row).to.include({ blocked_by: moderator.account.id });

      const lifted = await moderator.site.post(path, { blocked: false });
      expect(lifted.body.data).to.deep.equal({ account_id: target.account.id, blocked: false, blocked_at: null });
      expect(await db()('publisher_blocks').where({ account_id: target.account.id })).to.have.length(0);

      const actions = await db()('moderator_actions').where({ subject_id: target.account.id }).orderBy('created_at');
      expect(actions.map((a) => a.action)).to.deep.equal(['block_publisher', 'block_publisher', 'unblock_publisher']);
      for (const body of [{}, { blocked: 'yes' }]) {
        expect((await moderator.site.post(path, body)).body.error.field).to.equal('blocked');
      }
    });

    it('is for staff only: a member gets 403 and nothing changes', async () => {
      const member = await namedPerson(app.client, 'acct_member');
      const target = await namedPerson(app.client, 'acct_untouched');
      const res = await member.site.post(`/api/v1/moderation/accounts/${target.account.id}/publisher`, {
        blocked: true,
      });
      expect(res.status).to.equal(403);
      const refused = await member.site.post(`/api/v1/moderation/accounts/${target.account.id}/infractions`, {
        reason: 'Aviso',
      });
      expect(refused.status).to.equal(403);
      expect(await db()('publisher_blocks').where({ account_id: target.account.id })).to.have.length(0);
      expect(await db()('infractions').where({ account_id: target.account.id })).to.have.length(0);
    });
  });
});
