// Account self-service: usernames and aliases, state, birth date, identities and connections.
import { expect } from 'chai';
import { Account } from '../../shared/accounts/account.js';
import type { Knex } from 'knex';
import { findByUsername, usernameAvailable } from '../../shared/accounts/usernames.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey, buildAccount, signedInClient } from '../helpers/factories.js';
import { useTestApp } from '../helpers/test-app.js';

const DAY = 24 * 3600 * 1000;

function yearsAgo(years: number, extraDays = 0): string {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() - years);
  date.setUTCDate(date.getUTCDate() + extraDays);
  return date.toISOString().slice(0, 10);
}

describe('account self-service', () => {
  useCleanDatabase();
  const app = useTestApp();

  describe('usernames', () => {
    it('says whether a name is free; a malformed name is simply not available', async () => {
      await buildAccount({ username: 'taken_one' });
      const { site } = await signedInClient(app.client);
      const check = async (q: string) =>
        (await site.get(`/api/v1/account/username?q=${encodeURIComponent(q)}`)).body.data.available;
      expect(await check('free_name')).to.equal(true);
      expect(await check('taken_one')).to.equal(false);
      for (const malformed of ['Bad Name', 'ab', '_lead', 'trail_', 'UPPER', 'x'.repeat(25), '']) {
        expect(await check(malformed), malformed).to.equal(false);
      }
      const missing = await site.get('/api/v1/account/username');
      expect(missing.status).to.equal(400);
      expect(missing.body.error).to.deep.include({ field: 'q', reason: 'missing' });
    });

    it('answers any string, however long, with available false, not an error', async () => {
      const { site } = await signedInClient(app.client);
      // 201 was refused with 400 once; the longest here still fits the HTTP parser's request line.
      for (const long of ['a'.repeat(201), 'taken_one'.repeat(400), 'é'.repeat(1000), `${'x'.repeat(3000)} ?&=`]) {
        const res = await site.get(`/api/v1/account/username?q=${encodeURIComponent(long)}`);
        expect(res.status, `${long.length} characters`).to.equal(200);
        expect(res.body.data).to.deep.equal({ username: long, available: false });
      }
    });

    it('judges a string too long for a name without asking the database', async () => {
      // Any statement at all would call this.
      const untouchable = (() => {
        throw new Error('the database was asked');
      }) as unknown as Knex;
      expect(await usernameAvailable(untouchable, 'a'.repeat(100_000), 'not-an-account')).to.equal(false);
      expect(await usernameAvailable(untouchable, 'a'.repeat(25), 'not-an-account')).to.equal(false);
      // The same function does ask it for a name: the stand-in above is really in the way.
      const asked = await usernameAvailable(untouchable, 'fits_a_name', 'not-an-account').then(
        () => 'answered',
        (error: Error) => error.message,
      );
      expect(asked).to.equal('the database was asked');
    });

    it('takes a first name with PUT, once', async () => {
      const { site, account } = await signedInClient(app.client);
      const res = await site.put('/api/v1/account/username', { username: 'first_name' });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal({ username: 'first_name', next_change_at: null });
      expect((await Account.query(db()).findById(account.id))!.username).to.equal('first_name');
      const again = await site.put('/api/v1/account/username', { username: 'second_name' });
      expect(again.status).to.equal(409);
      expect(again.body.error.reason).to.equal('username_already_set');
    });

    it('refuses a taken or malformed name', async () => {
      await buildAccount({ username: 'someone' });
      const { site } = await signedInClient(app.client);
      const taken = await site.put('/api/v1/account/username', { username: 'someone' });
      expect(taken.status).to.equal(409);
      expect(taken.body.error).to.deep.include({ code: 'conflict', reason: 'username_taken' });
      for (const username of ['Someone', 'a', 'has space', 'x'.repeat(25), 'bad-dash']) {
        const res = await site.put('/api/v1/account/username', { username });
        expect(res.status, username).to.equal(400);
        expect(res.body.error).to.deep.include({ field: 'username', reason: 'bad_format' });
      }
    });

    it('gives a contested name to one of two simultaneous claims', async () => {
      const one = await signedInClient(app.client);
      const two = await signedInClient(app.client);
      const answers = await Promise.all([
        one.site.put('/api/v1/account/username', { username: 'contested' }),
        two.site.put('/api/v1/account/username', { username: 'contested' }),
      ]);
      expect(answers.map((r) => r.status).sort()).to.deep.equal([200, 409]);
    });

    it('renames, with 30 days between renames (409 with next_change_at when too soon)', async () => {
      const { site, account } = await signedInClient(app.client);
      await site.put('/api/v1/account/username', { username: 'old_name' });
      const renamed = await site.patch('/api/v1/account/username', { username: 'new_name' });
      expect(renamed.status).to.equal(200);
      expect(renamed.body.data.username).to.equal('new_name');
      const next = new Date(renamed.body.data.next_change_at).getTime();
      expect(next - Date.now()).to.be.within(30 * DAY - 60000, 30 * DAY);
      const early = await site.patch('/api/v1/account/username', { username: 'newer_name' });
      expect(early.status).to.equal(409);
      expect(early.body.error).to.deep.include({
        code: 'conflict',
        reason: 'rename_too_soon',
        next_change_at: renamed.body.data.next_change_at,
      });

      await db()('accounts')
        .where({ id: account.id })
        .update({ username_changed_at: new Date(Date.now() - 31 * DAY) });
      expect((await site.patch('/api/v1/account/username', { username: 'newer_name' })).status).to.equal(200);
    });

    it('keeps an old name as an alias for 30 days: it finds the account and nobody else may take it', async () => {
      const { site, account } = await signedInClient(app.client);
      await site.put('/api/v1/account/username', { username: 'before_rename' });
      await site.patch('/api/v1/account/username', { username: 'after_rename' });
      const viaAlias = await findByUsername(db(), 'before_rename');
      expect(viaAlias?.id).to.equal(account.id);
      expect(viaAlias?.username).to.equal('after_rename');
      expect((await findByUsername(db(), 'BEFORE_RENAME'))?.id, 'lookups ignore case').to.equal(account.id);

      const other = await signedInClient(app.client);
      expect((await other.site.get('/api/v1/account/username?q=before_rename')).body.data.available).to.equal(false);
      expect(
        (await site.get('/api/v1/account/username?q=before_rename')).body.data.available,
        'free for its owner',
      ).to.equal(true);
      const blocked = await other.site.put('/api/v1/account/username', { username: 'before_rename' });
      expect(blocked.status).to.equal(409);

      // 30 days later the alias ends: the name points nowhere and another account may take it.
      await db()('usernames')
        .where({ name: 'before_rename' })
        .update({ expires_at: new Date(Date.now() - 1000) });
      expect(await findByUsername(db(), 'before_rename')).to.equal(undefined);
      const taken = await other.site.put('/api/v1/account/username', { username: 'before_rename' });
      expect(taken.status).to.equal(200);
      expect((await findByUsername(db(), 'before_rename'))?.id).to.equal(other.account.id);
    });

    it('lets the owner take back their own alias', async () => {
      const { site, account } = await signedInClient(app.client);
      await site.put('/api/v1/account/username', { username: 'mine_first' });
      await site.patch('/api/v1/account/username', { username: 'mine_second' });
      await db()('accounts')
        .where({ id: account.id })
        .update({ username_changed_at: new Date(Date.now() - 31 * DAY) });
      const back = await site.patch('/api/v1/account/username', { username: 'mine_first' });
      expect(back.status).to.equal(200);
      const rows = await db()('usernames').where({ account_id: account.id }).orderBy('name');
      expect(rows.map((r) => [r.name, r.kind])).to.deep.equal([
        ['mine_first', 'current'],
        ['mine_second', 'alias'],
      ]);
    });

    it('refuses a name change without a name', async () => {
      const { site } = await signedInClient(app.client);
      for (const method of ['put', 'patch'] as const) {
        const res = await site[method]('/api/v1/account/username', {});
        expect(res.status, method).to.equal(400);
        expect(res.body.error).to.deep.include({ field: 'username', reason: 'missing' });
      }
      const badRename = await site.patch('/api/v1/account/username', { username: 'Bad Name' });
      expect(badRename.body.error).to.deep.include({ field: 'username', reason: 'bad_format' });
    });

    it('needs a first name before a rename', async () => {
      const { site } = await signedInClient(app.client);
      const res = await site.patch('/api/v1/account/username', { username: 'some_name' });
      expect(res.status).to.equal(409);
      expect(res.body.error.reason).to.equal('no_username');
    });

    it('holds one name in one place: the database refuses a second holder', async () => {
      const a = await buildAccount({ username: 'only_once' });
      const b = await buildAccount();
      try {
        await db()('usernames').insert({ name: 'only_once', account_id: b.account.id, kind: 'current' });
        expect.fail('the database should refuse');
      } catch (error) {
        expect((error as { code: string }).code).to.equal('23505');
      }
      expect((await findByUsername(db(), 'only_once'))?.id).to.equal(a.account.id);
    });
  });

  describe('GET /account/state', () => {
    it('answers a clean account', async () => {
      const { site } = await signedInClient(app.client);
      await site.put('/api/v1/account/username', { username: 'clean_one' });
      const res = await site.get('/api/v1/account/state');
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal({
        suspended: false,
        state: null,
        infractions: 0,
        infraction_history: [],
        username: 'clean_one',
      });
    });

    it('lists infractions newest first, in Portuguese, and says what they add up to now', async () => {
      const { site, account } = await signedInClient(app.client);
      const at = (days: number) => new Date(Date.now() - days * DAY);
      await db()('infractions').insert([
        { account_id: account.id, reason: 'Aviso', details: 'Spoilers sem aviso', created_at: at(30) },
        { account_id: account.id, reason: 'Suspensão', details: null, created_at: at(20), expires_at: at(10) },
        {
          account_id: account.id,
          reason: 'Suspensão',
          details: 'Assédio',
          created_at: at(1),
          expires_at: new Date(Date.now() + 6 * DAY),
        },
      ]);
      const res = await site.get('/api/v1/account/state');
      expect(res.body.data).to.include({ suspended: true, state: 'suspended', infractions: 3 });
      expect(res.body.data.infraction_history.map((i: { reason: string }) => i.reason)).to.deep.equal([
        'Suspensão',
        'Suspensão',
        'Aviso',
      ]);
      expect(res.body.data.infraction_history[0]).to.have.keys(['id', 'reason', 'details', 'expires_at', 'created_at']);
      await db()('infractions').insert({ account_id: account.id, reason: 'Banimento permanente' });
      expect((await site.get('/api/v1/account/state')).body.data).to.include({ state: 'banned', suspended: true });
    });

    it('expired suspensions and warnings leave the account in good standing', async () => {
      const { site, account } = await signedInClient(app.client);
      await db()('infractions').insert([
        { account_id: account.id, reason: 'Aviso' },
        { account_id: account.id, reason: 'Suspensão', expires_at: new Date(Date.now() - 1000) },
      ]);
      expect((await site.get('/api/v1/account/state')).body.data).to.include({
        suspended: false,
        state: null,
        infractions: 2,
      });
    });

    it('the database refuses an unknown kind of infraction', async () => {
      const { account } = await buildAccount();
      try {
        await db()('infractions').insert({ account_id: account.id, reason: 'Warning' });
        expect.fail('should refuse');
      } catch (error) {
        expect((error as { constraint: string }).constraint).to.equal('infractions_reason_known');
      }
    });
  });

  describe('birth date', () => {
    it('starts empty, stores a date and says it was self-declared', async () => {
      const { site } = await signedInClient(app.client);
      expect((await site.get('/api/v1/account/birth-date')).body.data).to.deep.equal({
        birth_date: null,
        confirmed_by: null,
      });
      const res = await site.put('/api/v1/account/birth-date', { birth_date: '1990-02-28' });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal({ birth_date: '1990-02-28', confirmed_by: 'self_declared' });
      expect((await site.get('/api/v1/account/birth-date')).body.data.birth_date).to.equal('1990-02-28');
    });

    it('is refused by the database when less than 13 years ago, and accepted at exactly 13', async () => {
      const { site } = await signedInClient(app.client);
      const young = await site.put('/api/v1/account/birth-date', { birth_date: yearsAgo(13, 1) });
      expect(young.status).to.equal(400);
      expect(young.body.error).to.deep.include({ code: 'invalid_request', field: 'birth_date', reason: 'too_recent' });
      expect((await site.put('/api/v1/account/birth-date', { birth_date: yearsAgo(13) })).status).to.equal(200);
    });

    const malformed: Array<[unknown, string]> = [
      ['2000-02-30', 'bad_format'],
      ['20000101', 'bad_format'],
      ['2000-1-1', 'bad_format'],
      [20000101, 'wrong_type'],
    ];
    for (const [value, reason] of malformed) {
      it(`refuses ${JSON.stringify(value)}`, async () => {
        const { site } = await signedInClient(app.client);
        const res = await site.put('/api/v1/account/birth-date', { birth_date: value });
        expect(res.status).to.equal(400);
        expect(res.body.error).to.deep.include({ field: 'birth_date', reason });
      });
    }

    it('refuses a date before 1900 and a missing date', async () => {
      const { site } = await signedInClient(app.client);
      const old = await site.put('/api/v1/account/birth-date', { birth_date: '1899-12-31' });
      expect(old.status).to.equal(400);
      expect(old.body.error).to.deep.include({ field: 'birth_date', reason: 'out_of_range' });
      expect((await site.put('/api/v1/account/birth-date', {})).body.error).to.deep.include({
        field: 'birth_date',
        reason: 'missing',
      });
    });
  });

  describe('identities and connections', () => {
    it('lists the email identity and linked providers', async () => {
      const { site, account, email } = await signedInClient(app.client);
      await db()('identities').insert({
        account_id: account.id,
        provider: 'twitch',
        provider_account_id: '1234',
        display_name: 'streamer',
      });
      const res = await site.get('/api/v1/account/identities');
      expect(res.status).to.equal(200);
      expect(res.body.data[0]).to.include({ provider: 'email', email, verified: false, password: true });
      expect(res.body.data[1]).to.include({ provider: 'twitch', display_name: 'streamer' });
      expect(res.body.data).to.have.length(2);
      expect(res.body.page).to.deep.equal({ number: 1, size: 2, total_items: 2, total_pages: 1, has_more: false });
    });

    it('forgets a linked service, answers 200 when none was linked, and 404 for another service', async () => {
      const { site, account } = await signedInClient(app.client);
      await db()('connections').insert({ account_id: account.id, service: 'steam', external_id: '7656119' });
      const removed = await site.delete('/api/v1/account/connections/steam');
      expect(removed.status).to.equal(200);
      expect(removed.body.data).to.deep.equal({ service: 'steam', removed: true });
      expect(await db()('connections').where({ account_id: account.id })).to.have.length(0);
      const nothing = await site.delete('/api/v1/account/connections/twitch');
      expect(nothing.status).to.equal(200);
      expect(nothing.body.data.removed).to.equal(false);
      const unknown = await site.delete('/api/v1/account/connections/myspace');
      expect(unknown.status).to.equal(404);
      expect(unknown.body.error.code).to.equal('not_found');
    });

    it('never touches another account’s connection', async () => {
      const other = await buildAccount();
      await db()('connections').insert({ account_id: other.account.id, service: 'steam', external_id: '1' });
      const { site } = await signedInClient(app.client);
      expect((await site.delete('/api/v1/account/connections/steam')).body.data.removed).to.equal(false);
      expect(await db()('connections').where({ account_id: other.account.id })).to.have.length(1);
    });
  });

  it('every route here is session only: a key gets 403 forbidden', async () => {
    const { account } = await buildAccount();
    const { token } = await appWithKey(account.id, ['profile.read', 'profile.write']);
    const headers = { authorization: `Bearer ${token}` };
    const calls = [
      app.client.get('/api/v1/account/username?q=abc', { headers }),
      app.client.put('/api/v1/account/username', { username: 'abc' }, { headers }),
      app.client.patch('/api/v1/account/username', { username: 'abc' }, { headers }),
      app.client.get('/api/v1/account/state', { headers }),
      app.client.get('/api/v1/account/birth-date', { headers }),
      app.client.put('/api/v1/account/birth-date', { birth_date: '1990-01-01' }, { headers }),
      app.client.get('/api/v1/account/identities', { headers }),
      app.client.delete('/api/v1/account/connections/steam', { headers }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).to.equal(403);
      expect(res.body.error.code).to.equal('forbidden');
    }
  });
});

describe('POST /account/bootstrap', () => {
  useCleanDatabase();
  const app = useTestApp();

  it('creates the profile row with the defaults, once', async () => {
    const { site, account } = await signedInClient(app.client);
    const first = await site.post('/api/v1/account/bootstrap');
    expect(first.status).to.equal(200);
    expect(first.body.data).to.deep.equal({ ready: true, profile_created: true, adopted: [] });
    const profile = await db()('profiles').where({ account_id: account.id }).first();
    expect(profile).to.include({ library_visibility: 'PUBLIC', bio: '' });
    const second = await site.post('/api/v1/account/bootstrap');
    expect(second.body.data).to.deep.equal({ ready: true, profile_created: false, adopted: [] });
    expect(await db()('profiles').where({ account_id: account.id })).to.have.length(1);
  });

  it('adopts the Twitch sign-in identity as the linked connection, idempotently', async () => {
    const { site, account } = await signedInClient(app.client);
    await db()('identities').insert({
      account_id: account.id,
      provider: 'twitch',
      provider_account_id: '4242',
      display_name: 'caster',
    });
    for (let i = 0; i < 2; i += 1) {
      const res = await site.post('/api/v1/account/bootstrap?adopt_twitch=true');
      expect(res.status).to.equal(200);
      expect(res.body.data.adopted).to.deep.equal(['twitch']);
    }
    const connections = await db()('connections').where({ account_id: account.id });
    expect(connections).to.have.length(1);
    expect(connections[0]).to.include({ service: 'twitch', external_id: '4242', display_name: 'caster' });
  });

  it('answers 404 when there is no Twitch identity to adopt, and refuses a flag that is not a boolean', async () => {
    const { site, account } = await signedInClient(app.client);
    const none = await site.post('/api/v1/account/bootstrap?adopt_twitch=true');
    expect(none.status).to.equal(404);
    expect(none.body.error.reason).to.equal('identity_not_found');
    expect(
      await db()('profiles').where({ account_id: account.id }),
      'the refused call left nothing half done',
    ).to.have.length(0);
    const bad = await site.post('/api/v1/account/bootstrap?adopt_twitch=yes');
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.deep.include({ field: 'adopt_twitch', reason: 'wrong_type' });
  });
});
