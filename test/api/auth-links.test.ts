// Magic-link sign-in (passwordless accounts), email verification, and the first password.
import { expect } from 'chai';
import { Account } from '../../shared/accounts/account.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { ageSession, buildAccount, PASSWORD, uniqueEmail } from '../helpers/factories.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

async function linkMailedTo(email: string, path: string): Promise<string> {
  const [mail] = await db()('email_outbox').where({ to_address: email }).orderBy('created_at', 'desc');
  expect(mail.text_body).to.include(`http://localhost:3000${path}?token=`);
  return /token=([A-Za-z0-9_-]+)/.exec(mail.text_body)![1];
}

describe('sign-in service: magic links, email verification and the first password', () => {
  useCleanDatabase();
  const app = useTestApp();

  describe('magic links', () => {
    it('creates a passwordless, verified account for a new email and signs it in', async () => {
      const email = uniqueEmail('magic');
      const site = new SiteClient(app.client);
      const asked = await site.post('/api/auth/magic-link', { email });
      expect(asked.status).to.equal(200);
      expect(asked.body.data).to.deep.equal({ sent: true });
      const [job] = await db()('pgboss.job').where({ name: 'email.send' }).orderBy('created_on', 'desc');
      expect(job, 'the mail is sent by the email.send job').to.exist;

      const token = await linkMailedTo(email, '/api/auth/magic-link/verify');
      const browser = new SiteClient(app.client, null);
      const res = await browser.get(`/api/auth/magic-link/verify?token=${token}`);
      expect(res.status).to.equal(200);
      expect(res.body.data.account).to.deep.include({ email, has_password: false, two_factor: false });
      const account = await Account.query(db()).findOne({ email });
      expect(account!.email_verified_at).to.be.instanceOf(Date);
      browser.origin = 'http://localhost:3000';
      expect((await browser.get('/api/auth/session')).status).to.equal(200);
    });

    it('signs in to the existing account of the email', async () => {
      const { email, account } = await buildAccount();
      await new SiteClient(app.client).post('/api/auth/magic-link', { email: email.toUpperCase() });
      const token = await linkMailedTo(email, '/api/auth/magic-link/verify');
      const res = await new SiteClient(app.client).get(`/api/auth/magic-link/verify?token=${token}`);
      expect(res.body.data.account.id).to.equal(account.id);
      expect(res.body.data.account.has_password).to.equal(true);
    });

    it('works once, and not after 15 minutes', async () => {
      const email = uniqueEmail();
      await new SiteClient(app.client).post('/api/auth/magic-link', { email });
      const token = await linkMailedTo(email, '/api/auth/magic-link/verify');
      expect((await new SiteClient(app.client).get(`/api/auth/magic-link/verify?token=${token}`)).status).to.equal(200);
      const reused = await new SiteClient(app.client).get(`/api/auth/magic-link/verify?token=${token}`);
      expect(reused.status).to.equal(400);
      expect(reused.body.error).to.deep.include({ code: 'invalid_request', field: 'token', reason: 'token_invalid' });

      const late = uniqueEmail();
      await new SiteClient(app.client).post('/api/auth/magic-link', { email: late });
      const lateToken = await linkMailedTo(late, '/api/auth/magic-link/verify');
      await db()('auth_tokens')
        .where({ email: late })
        .update({ expires_at: new Date(Date.now() - 1000) });
      expect((await new SiteClient(app.client).get(`/api/auth/magic-link/verify?token=${lateToken}`)).status).to.equal(
        400,
      );
    });

    it('refuses a made-up or missing token', async () => {
      const madeUp = await new SiteClient(app.client).get(`/api/auth/magic-link/verify?token=${'A'.repeat(43)}`);
      expect(madeUp.status).to.equal(400);
      const missing = await new SiteClient(app.client).get('/api/auth/magic-link/verify');
      expect(missing.body.error).to.deep.include({ field: 'token', reason: 'missing' });
    });

    it('limits requests: the sixth for one email in 15 minutes is 429', async () => {
      const email = uniqueEmail();
      for (let i = 0; i < 5; i += 1)
        expect((await new SiteClient(app.client).post('/api/auth/magic-link', { email })).status).to.equal(200);
      const blocked = await new SiteClient(app.client).post('/api/auth/magic-link', { email });
      expect(blocked.status).to.equal(429);
      expect(blocked.body.error.retry_after).to.be.a('number');
    });

    it('refuses a malformed email', async () => {
      const res = await new SiteClient(app.client).post('/api/auth/magic-link', { email: 'nope' });
      expect(res.status).to.equal(400);
      expect(res.body.error.field).to.equal('email');
    });
  });

  describe('GET /api/auth/verify-email', () => {
    it('marks the email verified, once', async () => {
      const email = uniqueEmail();
      await new SiteClient(app.client).post('/api/auth/sign-up', { email, password: PASSWORD });
      const token = await linkMailedTo(email, '/api/auth/verify-email');
      const res = await app.client.get(`/api/auth/verify-email?token=${token}`);
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal({ email, email_verified: true });
      expect((await Account.query(db()).findOne({ email }))!.email_verified_at).to.be.instanceOf(Date);
      expect((await app.client.get(`/api/auth/verify-email?token=${token}`)).status).to.equal(400);
    });

    it('is valid 7 days', async () => {
      const email = uniqueEmail();
      await new SiteClient(app.client).post('/api/auth/sign-up', { email, password: PASSWORD });
      const token = await linkMailedTo(email, '/api/auth/verify-email');
      const expiry = (await db()('auth_tokens').where({ email }).first()).expires_at as Date;
      expect(expiry.getTime() - Date.now()).to.be.within(7 * 86400000 - 60000, 7 * 86400000);
      await db()('auth_tokens')
        .where({ email })
        .update({ expires_at: new Date(Date.now() - 1) });
      expect((await app.client.get(`/api/auth/verify-email?token=${token}`)).status).to.equal(400);
    });
  });

  describe('POST /api/account/password (first password)', () => {
    async function passwordless() {
      const email = uniqueEmail();
      await new SiteClient(app.client).post('/api/auth/magic-link', { email });
      const token = await linkMailedTo(email, '/api/auth/magic-link/verify');
      const site = new SiteClient(app.client);
      const res = await site.get(`/api/auth/magic-link/verify?token=${token}`);
      return { site, email, sessionId: res.body.data.session.id as string };
    }

    it('sets a first password from a fresh session, then signing in with it works', async () => {
      const { site, email } = await passwordless();
      const res = await site.post('/api/account/password', { password: 'a brand new secret' });
      expect(res.status).to.equal(200);
      expect(res.body.data.account.has_password).to.equal(true);
      expect(
        (await new SiteClient(app.client).post('/api/auth/sign-in', { email, password: 'a brand new secret' })).status,
      ).to.equal(200);
    });

    it('answers 403 { error: reauthentication_required, second_factor: false } after 15 minutes', async () => {
      const { site, sessionId } = await passwordless();
      await ageSession(sessionId, 16);
      const res = await site.post('/api/account/password', { password: 'a brand new secret' });
      expect(res.status).to.equal(403);
      expect(res.body).to.deep.equal({ error: 'reauthentication_required', second_factor: false });
    });

    it('refuses an account that has a password, and a short password', async () => {
      const { site } = await passwordless();
      expect((await site.post('/api/account/password', { password: 'short' })).status).to.equal(400);
      await site.post('/api/account/password', { password: 'a brand new secret' });
      const again = await site.post('/api/account/password', { password: 'another new secret' });
      expect(again.status).to.equal(409);
      expect(again.body.error.reason).to.equal('password_already_set');
    });

    it('needs a session', async () => {
      const res = await new SiteClient(app.client).post('/api/account/password', { password: 'a brand new secret' });
      expect(res.status).to.equal(401);
    });
  });
});
