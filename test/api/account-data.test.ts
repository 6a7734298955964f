// GET /account/export and DELETE /account/data: the export registry against the schema, what the export
// holds (and never holds), the deletion proof matrix, and deletion touching nothing outside its category.
import { expect } from 'chai';
import { mailLink } from '../../shared/auth/one-time-links.js';
import { currentTotp } from '../../shared/auth/totp.js';
import { DELETION_CATEGORIES, KEPT_ON_DELETION, tablesOf } from '../../shared/accounts/data-deletion.js';
import { NOT_EXPORTED } from '../../shared/accounts/export-exclusions.js';
import { EXPORTED_TABLES } from '../../shared/accounts/export-registry.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { accountOwnedTables } from '../helpers/schema.js';
import { ageSession, appWithKey, buildAccount, PASSWORD, signedInClient } from '../helpers/factories.js';
import { catalogGame, playSession } from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

describe('account data: export and deletion', () => {
  useCleanDatabase();
  const app = useTestApp();

  /** A passwordless account signed in by magic link (and past its second factor when it has one). */
  async function passwordless(options: { twoFactor?: boolean } = {}) {
    const built = await buildAccount({ password: null, twoFactor: options.twoFactor });
    await db().transaction((trx) =>
      mailLink(trx, 'http://localhost:3000', 'magic_link', built.email, built.account.id),
    );
    const [mail] = await db()('email_outbox').where({ to_address: built.email }).orderBy('created_at', 'desc');
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail.text_body)![1];
    const site = new SiteClient(app.client);
    const res = await site.get(`/api/auth/magic-link/verify?token=${token}`);
    if (built.totpSecret) await site.post('/api/auth/two-factor', { code: currentTotp(built.totpSecret) });
    return { ...built, site, sessionId: res.body.data.session.id as string };
  }

  describe('the export registry', () => {
    it('lists every table that holds an account’s rows, exported or left out with a reason', async () => {
      const owned = await accountOwnedTables();
      expect(owned.length).to.be.greaterThan(5);
      const known = new Set([...EXPORTED_TABLES.map((entry) => entry.table), ...Object.keys(NOT_EXPORTED)]);
      expect(
        owned.filter((table: string) => !known.has(table)),
        'account-owned tables missing from the export registry',
      ).to.deep.equal([]);
    });

    it('makes every account-owned table either deletable by a category or kept on purpose', async () => {
      const decided = new Set([
        ...tablesOf('everything').map((owned) => owned.table),
        ...Object.keys(KEPT_ON_DELETION),
      ]);
      const undecided = (await accountOwnedTables()).filter((table: string) => !decided.has(table));
      expect(undecided, 'account-owned tables no deletion category names').to.deep.equal([]);
    });

    it('exports no secret columns', () => {
      for (const entry of EXPORTED_TABLES) {
        for (const column of entry.columns)
          expect(column, `${entry.table}.${column}`).not.to.match(/hash|secret|token/);
      }
    });
  });

  describe('GET /account/export', () => {
    it('holds what the account wrote, as a named JSON file, with no token, hash or secret', async () => {
      const { site, account, sessionId } = await signedInClient(app.client);
      await site.put('/api/v1/account/username', { username: 'exporter' });
      const { app: made, token } = await appWithKey(account.id, ['profile.read']);
      await db()('connections').insert({ account_id: account.id, service: 'steam', external_id: '76561198' });
      await db()('infractions').insert({ account_id: account.id, reason: 'Aviso', details: 'Leia as regras' });
      const other = await buildAccount({ username: 'not_in_it' });
      const played = await playSession(account.id, { game_id: 7 });

      const res = await site.get('/api/v1/account/export');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      expect(res.headers.get('content-disposition')).to.match(
        /^attachment; filename="jogatina-export-exporter-\d{4}-\d{2}-\d{2}\.json"$/,
      );
      expect(Object.keys(JSON.parse(res.text))).to.deep.equal(['data']);
      const doc = JSON.parse(res.text).data;
      expect(doc.export_version).to.equal(2);
      expect(doc.account).to.include({ id: account.id, username: 'exporter' });
      expect(doc.account).not.to.have.any.keys(
        'password_hash',
        'two_factor_secret',
        'two_factor_pending_secret',
        'totp_last_step',
      );
      expect(doc.usernames.map((u: { name: string }) => u.name)).to.deep.equal(['exporter']);
      expect(doc.apps.map((a: { id: string }) => a.id)).to.deep.equal([made.id]);
      expect(doc.api_keys[0]).to.include({ app_id: made.id, last4: token.slice(-4) });
      // Named as the deletion categories name them: `sessions` are play sessions.
      expect(doc.sign_in_sessions.map((s: { id: string }) => s.id)).to.include(sessionId);
      expect(doc.sessions.map((s: { id: string }) => s.id)).to.deep.equal([played.id]);
      expect(doc).not.to.have.property('play_sessions');
      expect(doc.connections[0]).to.include({ service: 'steam', external_id: '76561198' });
      expect(doc.infractions[0]).to.include({ reason: 'Aviso' });

      expect(res.text).not.to.include(token);
      const secrets = [
        ...(await db()('api_keys').where({ account_id: account.id }).pluck('token_hash')),
        ...(await db()('sessions').where({ account_id: account.id }).pluck('token_hash')),
        ...(await db()('accounts').where({ id: account.id }).pluck('password_hash')),
      ];
      for (const secret of secrets) expect(res.text).not.to.include(secret);
      expect(res.text).not.to.include(other.account.id);
    });

    it('is refused to a session that owes its second factor', async () => {
      const { email } = await buildAccount({ twoFactor: true });
      const site = new SiteClient(app.client);
      await site.post('/api/auth/sign-in', { email, password: PASSWORD });
      const res = await site.get('/api/v1/account/export');
      expect(res.status).to.equal(403);
      expect(res.body.error.reason).to.equal('mfa_required');
    });
  });

  describe('DELETE /account/data: the proof', () => {
    it('asks a password account for its password every time', async () => {
      const { site, account: owner } = await signedInClient(app.client);
      const missing = await site.delete('/api/v1/account/data?category=library');
      expect(missing.status).to.equal(403);
      expect(missing.body.error).to.deep.include({ code: 'forbidden', reason: 'password_required' });
      const wrong = await site.delete('/api/v1/account/data?category=library', { body: { password: 'not it at all' } });
      expect(wrong.body.error.reason).to.equal('password_incorrect');
      await db()('library_entries').insert({ account_id: owner.id, game_id: 7, status: 'PLAYING' });
      await db()('play_sessions').insert({ account_id: owner.id, game_id: 7, started_at: new Date() });
      const right = await site.delete('/api/v1/account/data?category=library', { body: { password: PASSWORD } });
      expect(right.status).to.equal(200);
      expect(right.body.data).to.deep.equal({
        category: 'library',
        removed: { activity_items: 0, library_entries: 1, library_copies: 0 },
      });
    });

    it('checks the second factor first, whatever the body holds', async () => {
      const { email, account } = await buildAccount({ twoFactor: true });
      const site = new SiteClient(app.client);
      await site.post('/api/auth/sign-in', { email, password: PASSWORD });
      const res = await site.delete('/api/v1/account/data?category=sessions', {
        body: { password: PASSWORD, code: '123456' },
      });
      expect(res.status).to.equal(403);
      expect(res.body.error.reason).to.equal('mfa_required');
      expect(await db()('sessions').where({ account_id: account.id })).to.have.length(1);
    });

    it('lets a passwordless account delete from a session of the last 15 minutes', async () => {
      const { site } = await passwordless();
      const res = await site.delete('/api/v1/account/data?category=library');
      expect(res.status).to.equal(200);
    });

    it('asks an older passwordless session to sign in again, saying a code would not do without two-factor', async () => {
      const { site, sessionId } = await passwordless();
      await ageSession(sessionId, 16);
      const res = await site.delete('/api/v1/account/data?category=library');
      expect(res.status).to.equal(403);
      expect(res.body.error).to.deep.include({
        code: 'forbidden',
        reason: 'reauthentication_required',
        second_factor: false,
      });
    });

    it('takes a code from an older passwordless session with two-factor on, and refuses a wrong one', async () => {
      const { site, sessionId, totpSecret } = await passwordless({ twoFactor: true });
      await ageSession(sessionId, 16);
      const bare = await site.delete('/api/v1/account/data?category=library');
      expect(bare.body.error).to.deep.include({ reason: 'reauthentication_required', second_factor: true });
      const wrong = await site.delete('/api/v1/account/data?category=library', { body: { code: '000000' } });
      expect(wrong.status).to.equal(403);
      expect(wrong.body.error.reason).to.equal('code_incorrect');
      const right = await site.delete('/api/v1/account/data?category=library', {
        body: { code: currentTotp(totpSecret!, Date.now() + 30000) },
      });
      expect(right.status).to.equal(200);
    });

    it('allows 10 attempts per 15 minutes, then answers 429 too_many_attempts', async () => {
      const { site } = await signedInClient(app.client);
      for (let i = 0; i < 10; i += 1) {
        const res = await site.delete('/api/v1/account/data?category=library', { body: { password: `wrong ${i}` } });
        expect(res.status).to.equal(403);
      }
      const eleventh = await site.delete('/api/v1/account/data?category=library', { body: { password: PASSWORD } });
      expect(eleventh.status).to.equal(429);
      expect(eleventh.body.error).to.deep.include({ code: 'rate_limited', reason: 'too_many_attempts' });
      expect(eleventh.body.error.retry_after).to.be.within(1, 900);
    });

    it('refuses a missing or unknown category', async () => {
      const { site } = await signedInClient(app.client);
      const missing = await site.delete('/api/v1/account/data', { body: { password: PASSWORD } });
      expect(missing.status).to.equal(400);
      expect(missing.body.error).to.deep.include({ field: 'category', reason: 'missing' });
      const unknown = await site.delete('/api/v1/account/data?category=friends', { body: { password: PASSWORD } });
      expect(unknown.body.error).to.deep.include({ field: 'category', reason: 'not_allowed' });
    });

    it('is session only', async () => {
      const { account } = await buildAccount();
      const { token } = await appWithKey(account.id, ['profile.write']);
      const res = await app.client.delete('/api/v1/account/data?category=library', {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).to.equal(403);
      expect(res.body.error.code).to.equal('forbidden');
    });
  });

  describe('DELETE /account/data: what goes', () => {
    it('names every table of the category with its count, zeros included, for every category', async () => {
      const { site } = await signedInClient(app.client);
      // `everything` too: no category counts the calling sign-in session.
      for (const category of DELETION_CATEGORIES) {
        const res = await site.delete(`/api/v1/account/data?category=${category}`, { body: { password: PASSWORD } });
        expect(res.status, category).to.equal(200);
        const tables = [...new Set(tablesOf(category).map((owned) => owned.table))];
        expect(tables.length, category).to.be.greaterThan(0);
        expect(res.body.data.removed, category).to.deep.equal(Object.fromEntries(tables.map((table) => [table, 0])));
      }
    });

    /** Two closed play sessions and a library entry, a copy and their feed items, made through the routes. */
    async function writeLibraryAndJournal(site: SiteClient) {
      const game = await catalogGame();
      for (const hoursAgo of [5, 3]) {
        const made = await site.post('/api/v1/journal/sessions', {
          game_id: game.id,
          started_at: new Date(Date.now() - hoursAgo * 3_600_000).toISOString(),
          ended_at: new Date(Date.now() - (hoursAgo - 1) * 3_600_000).toISOString(),
        });
        expect(made.status, made.text).to.equal(201);
      }
      expect((await site.put(`/api/v1/library/${game.id}`, { status: 'PLAYING' })).status).to.equal(201);
      expect((await site.post('/api/v1/library/copies', { game_id: game.id, format: 'digital' })).status).to.equal(201);
      return game;
    }

    const kinds = async (accountId: string) =>
      (await db()('activity_items').where({ account_id: accountId }).orderBy('kind').pluck('kind')) as string[];

    it('sessions: the play sessions and their feed items, and nothing else; sign-in sessions stay', async () => {
      const { site, account, email } = await signedInClient(app.client);
      const elsewhere = new SiteClient(app.client);
      await elsewhere.post('/api/auth/sign-in', { email, password: PASSWORD });
      await writeLibraryAndJournal(site);
      const bystander = await buildAccount();
      await playSession(bystander.account.id);
      expect(await kinds(account.id)).to.deep.equal(['entry', 'session', 'session']);

      const res = await site.delete('/api/v1/account/data?category=sessions', { body: { password: PASSWORD } });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal({ category: 'sessions', removed: { activity_items: 2, play_sessions: 2 } });
      expect(res.headers.get('set-cookie'), 'the cookie is left alone').to.equal(null);
      expect(await db()('play_sessions').where({ account_id: account.id })).to.have.length(0);
      expect(await db()('play_sessions').where({ account_id: bystander.account.id })).to.have.length(1);
      expect(await kinds(account.id)).to.deep.equal(['entry']);
      expect(await db()('library_entries').where({ account_id: account.id })).to.have.length(1);
      expect(await db()('library_copies').where({ account_id: account.id })).to.have.length(1);
      expect(await db()('sessions').where({ account_id: account.id })).to.have.length(2);
      expect((await site.get('/api/auth/session')).status, 'the calling session').to.equal(200);
      expect((await elsewhere.get('/api/auth/session')).status, 'another sign-in').to.equal(200);
    });

    it('library: the entries, the copies and their feed items; the play sessions stay', async () => {
      const { site, account } = await signedInClient(app.client);
      await writeLibraryAndJournal(site);
      const res = await site.delete('/api/v1/account/data?category=library', { body: { password: PASSWORD } });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal({
        category: 'library',
        removed: { activity_items: 1, library_entries: 1, library_copies: 1 },
      });
      expect(await kinds(account.id)).to.deep.equal(['session', 'session']);
      expect(await db()('play_sessions').where({ account_id: account.id })).to.have.length(2);
    });

    it('ends no sign-in session: those go one by one with DELETE /account/sessions/{id}', async () => {
      const { site, account } = await signedInClient(app.client);
      for (const category of DELETION_CATEGORIES) {
        expect(
          tablesOf(category).map((owned) => owned.table),
          category,
        ).not.to.include('sessions');
      }
      expect(KEPT_ON_DELETION).to.have.property('sessions');
      const res = await site.delete('/api/v1/account/data?category=sessions', { body: { password: PASSWORD } });
      expect(res.status).to.equal(200);
      expect(await db()('sessions').where({ account_id: account.id })).to.have.length(1);
    });

    it('everything: removes the content, play sessions included, and keeps the account, its apps and its sign-ins', async () => {
      const { site, account } = await signedInClient(app.client);
      await appWithKey(account.id);
      await writeLibraryAndJournal(site);
      const res = await site.delete('/api/v1/account/data?category=everything', { body: { password: PASSWORD } });
      expect(res.status).to.equal(200);
      expect(res.body.data.removed).to.deep.include({
        activity_items: 3,
        library_entries: 1,
        library_copies: 1,
        play_sessions: 2,
      });
      expect(res.body.data.removed).not.to.have.property('sessions');
      expect(await kinds(account.id)).to.deep.equal([]);
      expect(await db()('accounts').where({ id: account.id })).to.have.length(1);
      expect(await db()('apps').where({ account_id: account.id })).to.have.length(1);
      expect((await site.get('/api/auth/session')).status).to.equal(200);
    });

    it('drafts go with the category of what they draft; notes only with everything', async () => {
      const { site, account } = await signedInClient(app.client);
      const other = await buildAccount();
      for (const kind of ['review', 'list', 'journal', 'note']) {
        await db()('drafts').insert([
          { account_id: account.id, kind, title: kind },
          { account_id: other.account.id, kind, title: kind },
        ]);
      }
      const reviews = await site.delete('/api/v1/account/data?category=reviews', { body: { password: PASSWORD } });
      expect(reviews.body.data.removed).to.deep.equal({ drafts: 1, activity_items: 0, reviews: 0 });
      const kinds = async () =>
        (await db()('drafts').where({ account_id: account.id }).orderBy('kind').pluck('kind')) as string[];
      expect(await kinds()).to.deep.equal(['journal', 'list', 'note']);
      await site.delete('/api/v1/account/data?category=lists', { body: { password: PASSWORD } });
      expect(await kinds()).to.deep.equal(['journal', 'note']);
      const everything = await site.delete('/api/v1/account/data?category=everything', {
        body: { password: PASSWORD },
      });
      expect(everything.body.data.removed).to.deep.include({ drafts: 2 });
      expect(await kinds()).to.deep.equal([]);
      expect(await db()('drafts').where({ account_id: other.account.id })).to.have.length(4);
    });

    it('a category without records removes nothing and keeps the session', async () => {
      const { site } = await signedInClient(app.client);
      const res = await site.delete('/api/v1/account/data?category=reviews', { body: { password: PASSWORD } });
      expect(res.body.data).to.deep.equal({
        category: 'reviews',
        removed: { drafts: 0, activity_items: 0, reviews: 0 },
      });
      expect((await site.get('/api/auth/session')).status).to.equal(200);
    });
  });
});
