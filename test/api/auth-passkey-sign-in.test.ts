// Usernameless sign-in with a passkey (DECISIONS: Passkeys): a session that has passed its second factor
// (Arcade's mfa_session, and a passkey counts as two_factor), every way a sign-in is refused as a wrong
// password is (unknown credential, bad signature, another origin or relying party, a challenge replayed,
// expired or a registration's, no user verification, a counter going backwards, another account's user
// handle), the attempt limits shared with password sign-in, and the challenges' own limit.
import { expect } from 'chai';
import { currentTotp } from '../../shared/auth/totp.js';
import { db } from '../../shared/platform/db/knex.js';
import { arcadeDeveloper, currentTermsVersion } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { buildAccount, PASSWORD, signedInClient } from '../helpers/factories.js';
import { SiteClient } from '../helpers/site-client.js';
import { SoftAuthenticator, type Bend } from '../helpers/soft-authenticator.js';
import { SITE_ORIGIN, useTestApp } from '../helpers/test-app.js';

describe('sign-in service: signing in with a passkey', () => {
  useCleanDatabase();
  const app = useTestApp();

  /** An account with a registered passkey held by the returned authenticator. */
  async function withPasskey(site?: SiteClient) {
    const signed = site ? null : await signedInClient(app.client);
    const owner = site ?? signed!.site;
    const authenticator = new SoftAuthenticator(SITE_ORIGIN);
    const options = (await owner.post('/api/auth/passkeys/register/options', {})).body.data;
    const made = await owner.post('/api/auth/passkeys/register', { response: authenticator.register(options) });
    expect(made.status, made.text).to.equal(201);
    return { ...signed, authenticator, passkeyId: made.body.data.id as string };
  }

  async function signInWith(authenticator: SoftAuthenticator, bend: Bend = {}, site = new SiteClient(app.client)) {
    const options = await site.post('/api/auth/passkeys/sign-in/options', {});
    expect(options.status, options.text).to.equal(200);
    const res = await site.post('/api/auth/passkeys/sign-in', {
      response: authenticator.authenticate(options.body.data, bend),
    });
    return { site, res, options: options.body.data };
  }

  const refusal = (res: { status: number; body: any }) => [res.status, res.body.error?.code, res.body.error?.reason];

  it('signs in without a name, into a session that passed its second factor', async () => {
    const { authenticator, account, passkeyId } = await withPasskey();
    const { site, res, options } = await signInWith(authenticator);
    expect(options).to.deep.include({ rpId: 'localhost', userVerification: 'required', timeout: 300000 });
    expect(options).not.to.have.property('allowCredentials');
    expect(res.status, res.text).to.equal(200);
    expect(res.headers.get('set-cookie')).to.match(/^sid=/);
    expect(res.body.data.account.id).to.equal(account!.id);
    expect(res.body.data.session.second_factor).to.equal('passed');
    expect(res.body.data.second_factor_required).to.equal(false);
    const session = await site.get('/api/auth/session');
    expect(session.body.data.session.second_factor).to.equal('passed');
    const [listed] = (await site.get('/api/auth/passkeys')).body.data;
    expect(listed.id).to.equal(passkeyId);
    expect(Date.now() - Date.parse(listed.last_used_at)).to.be.below(60_000);
  });

  it('passes the second factor of an account with an authenticator app too', async () => {
    const built = await buildAccount({ twoFactor: true });
    const site = new SiteClient(app.client);
    await site.post('/api/auth/sign-in', { email: built.email, password: built.password });
    // Owing its second factor, this session cannot register; a session past it can.
    expect(refusal(await site.post('/api/auth/passkeys/register/options', {}))).to.deep.equal([
      403,
      'forbidden',
      'mfa_required',
    ]);
    await db()('sessions').where({ account_id: built.account.id }).update({ second_factor: 'passed' });
    const { authenticator } = await withPasskey(site);
    const { res } = await signInWith(authenticator);
    expect(res.status).to.equal(200);
    expect(res.body.data.session.second_factor).to.equal('passed');
    expect(res.body.data.second_factor_required).to.equal(false);
    // A password sign-in still owes the app's code; having a passkey adds no factor to it.
    const byPassword = await new SiteClient(app.client).post('/api/auth/sign-in', {
      email: built.email,
      password: built.password,
    });
    expect(byPassword.body.data.second_factor_required).to.equal(true);
  });

  it('stays verified when the account turns its authenticator app off', async () => {
    const built = await buildAccount({ twoFactor: true });
    const owner = new SiteClient(app.client);
    await owner.post('/api/auth/sign-in', { email: built.email, password: built.password });
    await owner.post('/api/auth/two-factor', { code: currentTotp(built.totpSecret!) });
    const { authenticator } = await withPasskey(owner);
    const { site } = await signInWith(authenticator);
    const waiting = new SiteClient(app.client);
    await waiting.post('/api/auth/sign-in', { email: built.email, password: built.password });
    await db()('accounts').where({ id: built.account.id }).update({ totp_last_step: null });
    const off = await owner.post('/api/auth/two-factor/disable', { code: currentTotp(built.totpSecret!) });
    expect(off.status, off.text).to.equal(200);
    // The passkey's session proved its factors; the one that only owed a code owes nothing now.
    expect((await site.get('/api/auth/session')).body.data.session.second_factor).to.equal('passed');
    expect((await waiting.get('/api/auth/session')).body.data.session.second_factor).to.equal('none');
  });

  it('counts as two-factor for Arcade, and its session as verified with two-factor', async () => {
    const dev = await arcadeDeveloper(app.client, { twoFactor: false });
    const before = (await dev.site.get(`/api/v1/account/apps/${dev.app.id}/arcade`)).body.data.eligibility;
    expect([before.two_factor, before.mfa_session]).to.deep.equal([false, false]);
    const { authenticator } = await withPasskey(dev.site);
    const registered = (await dev.site.get(`/api/v1/account/apps/${dev.app.id}/arcade`)).body.data.eligibility;
    expect([registered.two_factor, registered.mfa_session]).to.deep.equal([true, false]);
    const terms = { terms_version: await currentTermsVersion() };
    expect(refusal(await dev.site.post('/api/v1/account/arcade/terms', terms))).to.deep.equal([
      403,
      'forbidden',
      'mfa_required',
    ]);

    const { site } = await signInWith(authenticator);
    const after = (await site.get(`/api/v1/account/apps/${dev.app.id}/arcade`)).body.data.eligibility;
    expect([after.two_factor, after.mfa_session, after.eligible]).to.deep.equal([true, true, true]);
    expect((await site.post('/api/v1/account/arcade/terms', terms)).status).to.equal(200);
  });

  it('answers 401 invalid_credentials to every answer that does not verify, and signs no one in', async () => {
    // Each case on an account of its own: five failures of one account would make the sixth a 429.
    const fresh = async () => (await withPasskey()).authenticator;
    const { authenticator, account } = await withPasskey();
    const other = await withPasskey();
    const stranger = new SoftAuthenticator(SITE_ORIGIN);
    const strangerOptions = (
      await (await signedInClient(app.client)).site.post('/api/auth/passkeys/register/options', {})
    ).body.data;
    stranger.register(strangerOptions); // made, never sent: a credential the server does not know
    const cases: Array<[string, SoftAuthenticator, Bend]> = [
      ['an unknown credential', stranger, {}],
      ['another origin', await fresh(), { origin: 'https://evil.example' }],
      ['another relying party', await fresh(), { rpId: 'evil.example' }],
      ['no user verification', await fresh(), { userVerified: false }],
      ['a challenge never handed out', await fresh(), { challenge: Buffer.from('invented').toString('base64url') }],
      ['another account’s user handle', authenticator, { userHandle: other.authenticator.credentials[0].userHandle }],
    ];
    for (const [what, holder, bend] of cases) {
      const { res, site } = await signInWith(holder, bend);
      expect(refusal(res), what).to.deep.equal([401, 'unauthorized', 'invalid_credentials']);
      expect(res.headers.get('set-cookie'), what).to.equal(null);
      expect(site.cookie, what).to.equal(null);
    }
    // A signature by another key over the right data.
    const options = (await new SiteClient(app.client).post('/api/auth/passkeys/sign-in/options', {})).body.data;
    const forged = authenticator.authenticate(options);
    forged.response.signature = other.authenticator.authenticate(options, {
      credentialId: other.authenticator.credentials[0].id,
    }).response.signature;
    const bad = await new SiteClient(app.client).post('/api/auth/passkeys/sign-in', { response: forged });
    expect(refusal(bad), 'a bad signature').to.deep.equal([401, 'unauthorized', 'invalid_credentials']);
    expect((await db()('sessions').where({ account_id: account!.id })).length).to.equal(1);
  });

  it('uses a challenge once, for five minutes, for signing in only', async () => {
    const { authenticator, account } = await withPasskey();
    const site = new SiteClient(app.client);
    const options = (await site.post('/api/auth/passkeys/sign-in/options', {})).body.data;
    const response = authenticator.authenticate(options);
    // The same answer twice at once: one session.
    const both = await Promise.all(
      [1, 2].map(() => new SiteClient(app.client).post('/api/auth/passkeys/sign-in', { response })),
    );
    expect(both.map((res) => res.status).sort()).to.deep.equal([200, 401]);
    const replay = await new SiteClient(app.client).post('/api/auth/passkeys/sign-in', { response });
    expect(refusal(replay), 'replayed').to.deep.equal([401, 'unauthorized', 'invalid_credentials']);

    const late = (await site.post('/api/auth/passkeys/sign-in/options', {})).body.data;
    await db()('passkey_challenges')
      .where({ challenge: late.challenge })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const expired = await site.post('/api/auth/passkeys/sign-in', { response: authenticator.authenticate(late) });
    expect(refusal(expired), 'expired').to.deep.equal([401, 'unauthorized', 'invalid_credentials']);

    // A registration's challenge, even the account's own, does not sign in.
    const owner = await signedInClient(app.client);
    const registering = (await owner.site.post('/api/auth/passkeys/register/options', {})).body.data;
    const crossed = await site.post('/api/auth/passkeys/sign-in', {
      response: authenticator.authenticate({ ...late, challenge: registering.challenge }),
    });
    expect(refusal(crossed), 'a registration challenge').to.deep.equal([401, 'unauthorized', 'invalid_credentials']);
    expect((await db()('sessions').where({ account_id: account!.id })).length).to.equal(2);
  });

  it('refuses a signature counter that goes backwards or stands still (a cloned authenticator)', async () => {
    const { authenticator, passkeyId } = await withPasskey();
    expect((await signInWith(authenticator, { counter: 5 })).res.status).to.equal(200);
    expect(refusal((await signInWith(authenticator, { counter: 3 })).res)).to.deep.equal([
      401,
      'unauthorized',
      'invalid_credentials',
    ]);
    expect(refusal((await signInWith(authenticator, { counter: 5 })).res)).to.deep.equal([
      401,
      'unauthorized',
      'invalid_credentials',
    ]);
    expect(Number((await db()('passkeys').where({ id: passkeyId }).first()).counter)).to.equal(5);
    expect((await signInWith(authenticator, { counter: 6 })).res.status).to.equal(200);
    // An authenticator without a counter says 0 each time, and that is allowed.
    const { authenticator: counterless } = await withPasskey();
    for (let i = 0; i < 2; i += 1) expect((await signInWith(counterless, { counter: 0 })).res.status).to.equal(200);
  });

  it('counts failures against the address and the account, shared with password sign-in', async () => {
    const { authenticator, email } = await withPasskey();
    // Five failures from one address: the sixth attempt, even a right one, is 429.
    const address = new SiteClient(app.client);
    for (let i = 0; i < 5; i += 1) {
      const { res } = await signInWith(authenticator, { userVerified: false }, address);
      expect(res.status).to.equal(401);
    }
    const limited = (await signInWith(authenticator, {}, address)).res;
    expect(refusal(limited)).to.deep.equal([429, 'rate_limited', 'too_many_attempts']);
    expect(limited.body.error.retry_after).to.be.a('number');
    // The account took those five too: from a new address its password sign-in is refused as well.
    const password = await new SiteClient(app.client).post('/api/auth/sign-in', { email, password: PASSWORD });
    expect(refusal(password)).to.deep.equal([429, 'rate_limited', 'too_many_attempts']);
  });

  it('hands out 30 sign-in challenges per address in 15 minutes, then 429', async () => {
    const site = new SiteClient(app.client);
    const answers = await Promise.all(
      Array.from({ length: 32 }, () => site.post('/api/auth/passkeys/sign-in/options', {})),
    );
    expect(answers.filter((res) => res.status === 200)).to.have.length(30);
    expect(answers.filter((res) => res.status === 429).map((res) => res.body.error.reason)).to.deep.equal([
      'too_many_attempts',
      'too_many_attempts',
    ]);
    expect((await new SiteClient(app.client).post('/api/auth/passkeys/sign-in/options', {})).status).to.equal(200);
  });

  it('refuses bodies of the wrong shape, other origins and keys', async () => {
    const { authenticator } = await withPasskey();
    const options = (await new SiteClient(app.client).post('/api/auth/passkeys/sign-in/options', {})).body.data;
    const response = authenticator.authenticate(options);
    const bodies: Array<[unknown, string]> = [
      [{}, 'response'],
      [
        { response: { ...response, response: { ...response.response, signature: undefined } } },
        'response.response.signature',
      ],
      [{ response: { ...response, id: 'not base64url!' } }, 'response.id'],
      [{ response, email: 'x@example.com' }, 'email'],
    ];
    for (const [body, field] of bodies) {
      const res = await new SiteClient(app.client).post('/api/auth/passkeys/sign-in', body);
      expect([res.status, res.body.error.field], field).to.deep.equal([400, field]);
    }
    const elsewhere = new SiteClient(app.client, 'https://elsewhere.example');
    expect(refusal(await elsewhere.post('/api/auth/passkeys/sign-in/options', {}))).to.deep.equal([
      403,
      'forbidden',
      'cross_origin',
    ]);
    expect(refusal(await elsewhere.post('/api/auth/passkeys/sign-in', { response }))).to.deep.equal([
      403,
      'forbidden',
      'cross_origin',
    ]);
  });
});
