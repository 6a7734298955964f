// Two-factor: turning it on, the second factor at sign-in, codes accepted once, recovery codes, turning
// it off, and Authentication rule 11 for passwordless accounts.
import { expect } from 'chai';
import { Account } from '../../shared/accounts/account.js';
import { currentTotp } from '../../shared/auth/totp.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { ageSession, buildAccount, passwordlessClient, PASSWORD, signedInClient } from '../helpers/factories.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

const THIRTY_SECONDS = 30 * 1000;

describe('sign-in service: two-factor authentication', () => {
  useCleanDatabase();
  const app = useTestApp();

  async function signIn(email: string) {
    const site = new SiteClient(app.client);
    const res = await site.post('/api/auth/sign-in', { email, password: PASSWORD });
    return { site, res };
  }

  describe('turning it on', () => {
    it('needs the password of an account that has one', async () => {
      const { site } = await signedInClient(app.client);
      const missing = await site.post('/api/auth/two-factor/enable', {});
      expect(missing.status).to.equal(403);
      expect(missing.body.error).to.deep.include({ code: 'forbidden', reason: 'password_required' });
      const wrong = await site.post('/api/auth/two-factor/enable', { password: 'not it at all' });
      expect(wrong.status).to.equal(403);
      expect(wrong.body.error.reason).to.equal('password_incorrect');
    });

    it('gives a secret, an otpauth URI and ten recovery codes, and is on only after a confirmed code', async () => {
      const { site, email } = await signedInClient(app.client);
      const enabled = await site.post('/api/auth/two-factor/enable', { password: PASSWORD });
      expect(enabled.status).to.equal(200);
      const { secret, otpauth_uri, recovery_codes } = enabled.body.data;
      expect(secret).to.match(/^[A-Z2-7]{32}$/);
      expect(otpauth_uri)
        .to.match(/^otpauth:\/\/totp\/Jogatina:/)
        .and.include(`secret=${secret}`);
      expect(recovery_codes).to.have.length(10);
      expect(new Set(recovery_codes).size).to.equal(10);
      expect((await site.get('/api/auth/session')).body.data.account.two_factor).to.equal(false);

      const wrong = await site.post('/api/auth/two-factor/confirm', { code: '000000' });
      expect(wrong.status).to.equal(403);
      expect(wrong.body.error.reason).to.equal('code_incorrect');
      const confirmed = await site.post('/api/auth/two-factor/confirm', { code: currentTotp(secret) });
      expect(confirmed.status).to.equal(200);
      const session = await site.get('/api/auth/session');
      expect(session.body.data.account.two_factor).to.equal(true);
      expect(session.body.data.session.second_factor).to.equal('passed');

      const stored = await Account.query(db()).findOne({ email });
      expect(stored!.two_factor_secret).to.not.include(secret);
    });

    it('refuses to confirm without a started setup, and to enable twice', async () => {
      const { site } = await signedInClient(app.client);
      const early = await site.post('/api/auth/two-factor/confirm', { code: '123456' });
      expect(early.status).to.equal(409);
      expect(early.body.error.reason).to.equal('two_factor_not_pending');
      const { site: on } = await signedInClient(app.client, { twoFactor: true });
      const again = await on.post('/api/auth/two-factor/enable', { password: PASSWORD });
      expect(again.status).to.equal(409);
      expect(again.body.error.reason).to.equal('two_factor_already_on');
    });
  });

  describe('signing in with two-factor on', () => {
    it('owes the second factor until a code passes it', async () => {
      const { email, totpSecret } = await buildAccount({ twoFactor: true });
      const { site, res } = await signIn(email);
      expect(res.body.data.second_factor_required).to.equal(true);
      expect(res.body.data.session.second_factor).to.equal('pending');
      const wrong = await site.post('/api/auth/two-factor', { code: '999999' });
      expect(wrong.status).to.equal(403);
      expect(wrong.body.error.reason).to.equal('code_incorrect');
      const passed = await site.post('/api/auth/two-factor', { code: currentTotp(totpSecret!) });
      expect(passed.status).to.equal(200);
      expect(passed.body.data.session.second_factor).to.equal('passed');
      const again = await site.post('/api/auth/two-factor', { code: currentTotp(totpSecret!) });
      expect(again.status).to.equal(409);
      expect(again.body.error.reason).to.equal('second_factor_not_owed');
    });

    it('accepts an authenticator code once: a replay on another session is refused', async () => {
      const { email, totpSecret } = await buildAccount({ twoFactor: true });
      const code = currentTotp(totpSecret!);
      const first = await signIn(email);
      expect((await first.site.post('/api/auth/two-factor', { code })).status).to.equal(200);
      const second = await signIn(email);
      const replay = await second.site.post('/api/auth/two-factor', { code });
      expect(replay.status).to.equal(403);
      expect(replay.body.error.reason).to.equal('code_incorrect');
      // The next step's code is fine.
      const next = await second.site.post('/api/auth/two-factor', {
        code: currentTotp(totpSecret!, Date.now() + THIRTY_SECONDS),
      });
      expect(next.status).to.equal(200);
    });

    it('accepts a recovery code once', async () => {
      const { site, email } = await signedInClient(app.client);
      const { secret, recovery_codes } = (await site.post('/api/auth/two-factor/enable', { password: PASSWORD })).body
        .data;
      await site.post('/api/auth/two-factor/confirm', { code: currentTotp(secret) });
      const first = await signIn(email);
      expect(
        (await first.site.post('/api/auth/two-factor', { code: recovery_codes[0].toUpperCase() })).status,
      ).to.equal(200);
      const second = await signIn(email);
      const reused = await second.site.post('/api/auth/two-factor', { code: recovery_codes[0] });
      expect(reused.status).to.equal(403);
      expect((await second.site.post('/api/auth/two-factor', { code: recovery_codes[1] })).status).to.equal(200);
    });

    it('limits code guesses: 5 wrong codes, then 429', async () => {
      const { email } = await buildAccount({ twoFactor: true });
      const { site } = await signIn(email);
      for (let i = 0; i < 5; i += 1)
        expect((await site.post('/api/auth/two-factor', { code: `00000${i}` })).status).to.equal(403);
      const blocked = await site.post('/api/auth/two-factor', { code: '000009' });
      expect(blocked.status).to.equal(429);
      expect(blocked.body.error).to.deep.include({ reason: 'too_many_attempts' });
    });
  });

  describe('recovery codes and turning it off', () => {
    it('makes ten new recovery codes and the old ones stop working', async () => {
      const { site, email } = await signedInClient(app.client);
      const { secret, recovery_codes: old } = (await site.post('/api/auth/two-factor/enable', { password: PASSWORD }))
        .body.data;
      await site.post('/api/auth/two-factor/confirm', { code: currentTotp(secret) });
      const renewed = await site.post('/api/auth/recovery-codes');
      expect(renewed.status).to.equal(200);
      expect(renewed.body.data.recovery_codes).to.have.length(10);
      const pending = await signIn(email);
      expect((await pending.site.post('/api/auth/two-factor', { code: old[0] })).status).to.equal(403);
      expect(
        (await pending.site.post('/api/auth/two-factor', { code: renewed.body.data.recovery_codes[0] })).status,
      ).to.equal(200);
    });

    it('refuses new recovery codes to a session that owes its second factor', async () => {
      const { email } = await buildAccount({ twoFactor: true });
      const { site } = await signIn(email);
      const res = await site.post('/api/auth/recovery-codes');
      expect(res.status).to.equal(403);
      expect(res.body.error.reason).to.equal('mfa_required');
    });

    it('turns off with a valid code; other sessions stop owing it', async () => {
      const { email, totpSecret } = await buildAccount({ twoFactor: true });
      const waiting = await signIn(email);
      const { site } = await signIn(email);
      expect((await site.post('/api/auth/two-factor/disable', { code: '111111' })).status).to.equal(403);
      const off = await site.post('/api/auth/two-factor/disable', { code: currentTotp(totpSecret!) });
      expect(off.status).to.equal(200);
      expect((await site.get('/api/auth/session')).body.data.account.two_factor).to.equal(false);
      expect((await waiting.site.get('/api/auth/session')).body.data.session.second_factor).to.equal('none');
      const twice = await site.post('/api/auth/two-factor/disable', { code: '123456' });
      expect(twice.status).to.equal(409);
      expect(twice.body.error.reason).to.equal('two_factor_off');
    });
  });

  describe('rule 11: passwordless accounts need a sign-in from the last 15 minutes', () => {
    it('lets a fresh session turn two-factor on without a password', async () => {
      const { site } = await passwordlessClient(app.client);
      const res = await site.post('/api/auth/two-factor/enable', {});
      expect(res.status).to.equal(200);
    });

    it('answers RECENT_SIGN_IN_REQUIRED once the session is older than 15 minutes', async () => {
      const { site, sessionId } = await passwordlessClient(app.client);
      await ageSession(sessionId, 16);
      for (const path of ['/api/auth/two-factor/enable', '/api/auth/two-factor/confirm', '/api/auth/recovery-codes']) {
        const res = await site.post(path, path.endsWith('confirm') ? { code: '123456' } : {});
        expect(res.status, path).to.equal(403);
        expect(res.body.code, path).to.equal('RECENT_SIGN_IN_REQUIRED');
        expect(res.body.message).to.be.a('string');
        expect(res.body.error).to.deep.include({ code: 'forbidden', reason: 'reauthentication_required' });
      }
    });

    it('refuses to turn two-factor off after 15 minutes, even with a good code, and spends no code', async () => {
      const { site, sessionId } = await passwordlessClient(app.client);
      const { secret, recovery_codes: codes } = (await site.post('/api/auth/two-factor/enable', {})).body.data;
      expect((await site.post('/api/auth/two-factor/confirm', { code: currentTotp(secret) })).status).to.equal(200);

      await ageSession(sessionId, 16);
      const refused = await site.post('/api/auth/two-factor/disable', { code: codes[0] });
      expect(refused.status).to.equal(403);
      expect(refused.body.code).to.equal('RECENT_SIGN_IN_REQUIRED');
      expect(refused.body.message).to.be.a('string');
      expect(refused.body.error).to.deep.include({ code: 'forbidden', reason: 'reauthentication_required' });
      expect((await site.get('/api/auth/session')).body.data.account.two_factor).to.equal(true);

      // Signed in 14 minutes ago, the same recovery code turns it off: the refusal checked no code.
      await ageSession(sessionId, 14);
      const off = await site.post('/api/auth/two-factor/disable', { code: codes[0] });
      expect(off.status).to.equal(200);
      expect((await site.get('/api/auth/session')).body.data.account.two_factor).to.equal(false);
    });

    it('does not apply to an account with a password', async () => {
      const { site, sessionId } = await signedInClient(app.client);
      await ageSession(sessionId, 60);
      expect((await site.post('/api/auth/two-factor/enable', { password: PASSWORD })).status).to.equal(200);
      // Turning it off asks for a code, however old the sign-in.
      const { site: other, sessionId: otherId, totpSecret } = await signedInClient(app.client, { twoFactor: true });
      await ageSession(otherId, 60);
      expect((await other.post('/api/auth/two-factor/disable', { code: currentTotp(totpSecret!) })).status).to.equal(
        200,
      );
    });
  });
});
