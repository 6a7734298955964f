// Account self-service: state, birth date, identities and connections (usernames: account-usernames.test.ts).
import { expect } from 'chai';
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
