// The sign-in service: sign-up, sign-in, the session cookie and its origin rule, sign-out, expiry and
// the attempt limits (DECISIONS: Sign-in service and sessions).
import { expect } from 'chai';
import { Session } from '../../shared/auth/models.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { ageSession, appWithKey, buildAccount, PASSWORD, signedInClient, uniqueEmail } from '../helpers/factories.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

describe('sign-in service: sign-up, sign-in and sessions', () => {
  useCleanDatabase();
  const app = useTestApp();

  describe('POST /api/auth/sign-up', () => {
    it('creates the account, sets an HttpOnly SameSite=Lax cookie and mails a verification link', async () => {
      const site = new SiteClient(app.client);
      const email = uniqueEmail('new');
      const res = await site.post('/api/auth/sign-up', { email, password: PASSWORD, username: 'new_player1' });
      expect(res.status).to.equal(201);
      expect(res.body.data.account).to.deep.include({
        email,
        username: 'new_player1',
        has_password: true,
        two_factor: false,
      });
      expect(res.body.data.session.second_factor).to.equal('none');
      const cookie = res.headers.get('set-cookie')!;
      expect(cookie).to.match(/^sid=[A-Za-z0-9_-]{43};/);
      expect(cookie.toLowerCase()).to.include('httponly').and.include('samesite=lax').and.include('path=/');

      const session = await site.get('/api/auth/session');
      expect(session.status).to.equal(200);
      expect(session.body.data.account.email).to.equal(email);
      expect(session.headers.get('x-ratelimit-limit')).to.equal(null);

      const [mail] = await db()('email_outbox').where({ to_address: email });
      expect(mail.kind).to.equal('auth.verify_email');
      expect(mail.text_body).to.match(/\/api\/auth\/verify-email\?token=[A-Za-z0-9_-]{43}/);
    });

    it('stores only a hash of the cookie value', async () => {
      const site = new SiteClient(app.client);
      await site.post('/api/auth/sign-up', { email: uniqueEmail(), password: PASSWORD });
      const value = site.cookie!.split('=')[1];
      const rows = await Session.query(db());
      expect(JSON.stringify(rows)).not.to.include(value);
    });

    const refusals: Array<[string, Record<string, unknown>, string, string]> = [
      ['no email', { password: PASSWORD }, 'email', 'missing'],
      ['a malformed email', { email: 'not-an-email', password: PASSWORD }, 'email', 'bad_format'],
      ['a 9-character password', { email: 'a@b.test', password: '123456789' }, 'password', 'too_short'],
      ['a 129-character password', { email: 'a@b.test', password: 'x'.repeat(129) }, 'password', 'too_long'],
      [
        'a username with capitals',
        { email: 'a@b.test', password: PASSWORD, username: 'Player' },
        'username',
        'bad_format',
      ],
      [
        'a username ending in _',
        { email: 'a@b.test', password: PASSWORD, username: 'player_' },
        'username',
        'bad_format',
      ],
      ['a 2-character username', { email: 'a@b.test', password: PASSWORD, username: 'ab' }, 'username', 'bad_format'],
      ['an unknown field', { email: 'a@b.test', password: PASSWORD, admin: true }, 'admin', 'unknown_field'],
    ];
    for (const [what, body, field, reason] of refusals) {
      it(`refuses ${what} with 400 naming ${field}`, async () => {
        const res = await new SiteClient(app.client).post('/api/auth/sign-up', body);
        expect(res.status).to.equal(400);
        expect(res.body.error).to.deep.include({ code: 'invalid_request', field, reason });
      });
    }

    it('accepts 10 and 128 character passwords', async () => {
      for (const password of ['x'.repeat(10), 'y'.repeat(128)]) {
        const res = await new SiteClient(app.client).post('/api/auth/sign-up', { email: uniqueEmail(), password });
        expect(res.status).to.equal(201);
      }
    });

    it('refuses an email already used, in any case, with 409 email_taken', async () => {
      const { email } = await buildAccount();
      const res = await new SiteClient(app.client).post('/api/auth/sign-up', {
        email: email.toUpperCase(),
        password: PASSWORD,
      });
      expect(res.status).to.equal(409);
      expect(res.body.error).to.deep.include({ code: 'conflict', reason: 'email_taken' });
    });

    it('counts email_taken answers: 3 sign-ups an hour per email, whatever the answer, then 429', async () => {
      const { email } = await buildAccount();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        const res = await new SiteClient(app.client).post('/api/auth/sign-up', { email, password: PASSWORD });
        statuses.push(res.status);
      }
      expect(statuses).to.deep.equal([409, 409, 409, 429]);
      expect(await db()('email_outbox').where({ to_address: email })).to.have.length(0);
    });

    it('allows 10 sign-ups an hour per address, exactly, when 15 come at once', async () => {
      const site = new SiteClient(app.client);
      const emails = Array.from({ length: 15 }, () => uniqueEmail('burst'));
      const statuses = (
        await Promise.all(emails.map((email) => site.post('/api/auth/sign-up', { email, password: PASSWORD })))
      ).map((res) => res.status);
      expect(statuses.filter((status) => status === 201)).to.have.length(10);
      expect(statuses.filter((status) => status === 429)).to.have.length(5);
      expect(await db()('accounts').whereIn('email', emails)).to.have.length(10);
      // A refused email's allowance was not spent: the same email signs up from another address.
      const refused = emails.find((_, i) => statuses[i] === 429)!;
      const elsewhere = await new SiteClient(app.client).post('/api/auth/sign-up', {
        email: refused,
        password: PASSWORD,
      });
      expect(elsewhere.status).to.equal(201);
    });

    it('creates one account when one email signs up 3 times at once; the others hear email_taken', async () => {
      const email = uniqueEmail('race');
      const statuses = (
        await Promise.all(
          Array.from({ length: 3 }, () =>
            new SiteClient(app.client).post('/api/auth/sign-up', { email, password: PASSWORD }),
          ),
        )
      ).map((res) => res.status);
      expect([...statuses].sort()).to.deep.equal([201, 409, 409]);
      expect(await db()('accounts').where({ email })).to.have.length(1);
      expect(await db()('email_outbox').where({ to_address: email })).to.have.length(1);
    });

    it('refuses a username already taken with 409 username_taken', async () => {
      await buildAccount({ username: 'taken_name' });
      const res = await new SiteClient(app.client).post('/api/auth/sign-up', {
        email: uniqueEmail(),
        password: PASSWORD,
        username: 'taken_name',
      });
      expect(res.status).to.equal(409);
      expect(res.body.error.reason).to.equal('username_taken');
    });

    it('refuses a request from another origin, so no other site can create sessions', async () => {
      const site = new SiteClient(app.client, 'https://evil.example');
      const res = await site.post('/api/auth/sign-up', { email: uniqueEmail(), password: PASSWORD });
      expect(res.status).to.equal(403);
      expect(res.body.error).to.deep.include({ code: 'forbidden', reason: 'cross_origin' });
      expect(site.cookie).to.equal(null);
    });
  });

  describe('POST /api/auth/sign-in', () => {
    it('signs in with the right password', async () => {
      const { email } = await buildAccount();
      const site = new SiteClient(app.client);
      const res = await site.post('/api/auth/sign-in', { email, password: PASSWORD });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.include({ second_factor_required: false });
      expect(site.cookie).to.match(/^sid=/);
    });

    it('answers a wrong password and an unknown email with the same 401', async () => {
      const { email } = await buildAccount();
      const wrong = await new SiteClient(app.client).post('/api/auth/sign-in', { email, password: 'not the password' });
      const unknown = await new SiteClient(app.client).post('/api/auth/sign-in', {
        email: uniqueEmail(),
        password: PASSWORD,
      });
      expect(wrong.status).to.equal(401);
      expect(unknown.status).to.equal(401);
      expect(wrong.body).to.deep.equal(unknown.body);
      expect(wrong.body.error).to.deep.include({ code: 'unauthorized', reason: 'invalid_credentials' });
    });

    it('refuses a password on a passwordless account like a wrong one', async () => {
      const { email } = await buildAccount({ password: null });
      const res = await new SiteClient(app.client).post('/api/auth/sign-in', { email, password: PASSWORD });
      expect(res.status).to.equal(401);
    });

    it('refuses missing fields', async () => {
      const res = await new SiteClient(app.client).post('/api/auth/sign-in', { email: 'a@b.test' });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.deep.include({ field: 'password', reason: 'missing' });
    });

    it('after 5 failures for an account answers 429 with retry_after, even to the right password', async () => {
      const { email } = await buildAccount();
      for (let i = 0; i < 5; i += 1) {
        // Each failure from another address: the account's own count is what stops the sixth.
        const res = await new SiteClient(app.client).post('/api/auth/sign-in', { email, password: `wrong ${i}` });
        expect(res.status).to.equal(401);
      }
      const blocked = await new SiteClient(app.client).post('/api/auth/sign-in', { email, password: PASSWORD });
      expect(blocked.status).to.equal(429);
      expect(blocked.body.error).to.deep.include({ code: 'rate_limited', reason: 'too_many_attempts' });
      expect(blocked.body.error.retry_after).to.be.within(800, 900);
      expect(blocked.headers.get('retry-after')).to.equal(String(blocked.body.error.retry_after));
    });

    it('after 5 failures from one address answers 429 for other accounts too', async () => {
      const site = new SiteClient(app.client);
      for (let i = 0; i < 5; i += 1)
        await site.post('/api/auth/sign-in', { email: uniqueEmail(), password: 'wrong password' });
      const { email } = await buildAccount();
      const blocked = await site.post('/api/auth/sign-in', { email, password: PASSWORD });
      expect(blocked.status).to.equal(429);
      const elsewhere = await new SiteClient(app.client).post('/api/auth/sign-in', { email, password: PASSWORD });
      expect(elsewhere.status).to.equal(200);
    });
  });

  describe('the session cookie', () => {
    it('counts only from the site origin', async () => {
      const { site } = await signedInClient(app.client);
      expect((await site.get('/api/auth/session')).status).to.equal(200);
      const foreign = await site.get('/api/auth/session', { headers: { origin: 'https://evil.example' } });
      expect(foreign.status).to.equal(401);
      expect(foreign.body.error.code).to.equal('unauthorized');
      site.origin = null;
      expect((await site.get('/api/auth/session')).status, 'no Origin, no Sec-Fetch-Site').to.equal(401);
      expect((await site.get('/api/auth/session', { headers: { 'sec-fetch-site': 'cross-site' } })).status).to.equal(
        401,
      );
      expect((await site.get('/api/auth/session', { headers: { 'sec-fetch-site': 'same-origin' } })).status).to.equal(
        200,
      );
    });

    it('means nothing when forged', async () => {
      const site = new SiteClient(app.client);
      site.cookie = 'sid=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
      expect((await site.get('/api/auth/session')).status).to.equal(401);
    });

    it('ends after 30 days unused, and the row goes', async () => {
      const { site, sessionId } = await signedInClient(app.client);
      await ageSession(sessionId, 30 * 24 * 60 + 5, 'last_seen_at');
      expect((await site.get('/api/auth/session')).status).to.equal(401);
      expect(await Session.query(db()).findById(sessionId)).to.equal(undefined);
    });

    it('stays while used within 30 days', async () => {
      const { site, sessionId } = await signedInClient(app.client);
      await ageSession(sessionId, 29 * 24 * 60, 'last_seen_at');
      expect((await site.get('/api/auth/session')).status).to.equal(200);
      // The touch is written beside the answer, not before it.
      await until(async () => {
        const touched = await Session.query(db()).findById(sessionId);
        return Date.now() - touched!.last_seen_at.getTime() < 60000;
      });
    });

    it('is not a way in for an API key: a key on the sign-in service is 403', async () => {
      const { account } = await buildAccount();
      const { token } = await appWithKey(account.id);
      const res = await app.client.get('/api/auth/session', { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).to.equal(403);
      expect(res.body.error.code).to.equal('forbidden');
    });
  });

  describe('POST /api/auth/sign-out', () => {
    it('ends this session and clears the cookie', async () => {
      const { site, sessionId } = await signedInClient(app.client);
      const stolen = site.cookie;
      const res = await site.post('/api/auth/sign-out');
      expect(res.status).to.equal(200);
      expect(res.headers.get('set-cookie')).to.match(/^sid=;/);
      expect(await Session.query(db()).findById(sessionId)).to.equal(undefined);
      site.cookie = stolen;
      expect((await site.get('/api/auth/session')).status).to.equal(401);
    });

    it('needs a session', async () => {
      const res = await new SiteClient(app.client).post('/api/auth/sign-out');
      expect(res.status).to.equal(401);
    });
  });
});
