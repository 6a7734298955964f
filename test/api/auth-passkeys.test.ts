// Passkeys registered and managed (DECISIONS: Passkeys): the options, the registration and each way it is
// refused (origin, relying party, user verification, a challenge used, expired, another account's or a
// sign-in's), the limit of 10 (in parallel too), listing, renaming and deleting, rule 11 for passwordless
// accounts, a session that owes its second factor, and what Arcade, the export and the deletion make of them.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { ageSession, appWithKey, buildAccount, passwordlessClient, signedInClient } from '../helpers/factories.js';
import { SiteClient } from '../helpers/site-client.js';
import { SoftAuthenticator, type Bend } from '../helpers/soft-authenticator.js';
import { SITE_ORIGIN, useTestApp } from '../helpers/test-app.js';

describe('sign-in service: passkeys registered and managed', () => {
  useCleanDatabase();
  const app = useTestApp();

  async function register(site: SiteClient, authenticator: SoftAuthenticator, bend: Bend = {}, name?: string) {
    const options = await site.post('/api/auth/passkeys/register/options', {});
    expect(options.status, options.text).to.equal(200);
    const response = authenticator.register(options.body.data, bend);
    return site.post('/api/auth/passkeys/register', { response, ...(name === undefined ? {} : { name }) });
  }

  const refusal = (res: { status: number; body: any }) => [res.status, res.body.error?.code, res.body.error?.reason];
  const count = async (accountId: string) =>
    Number((await db()('passkeys').where({ account_id: accountId }).count())[0].count);

  it('hands out options for a discoverable, user-verified credential of this site, then registers it', async () => {
    const { site, account } = await signedInClient(app.client);
    const options = await site.post('/api/auth/passkeys/register/options', {});
    expect(options.status).to.equal(200);
    expect(options.headers.get('cache-control')).to.equal('no-store');
    const data = options.body.data;
    expect(data.rp).to.deep.equal({ name: 'Jogatina', id: 'localhost' });
    expect(data.user.id).to.equal(Buffer.from(account.id.replace(/-/g, ''), 'hex').toString('base64url'));
    expect(data.user.name).to.equal(account.email);
    expect(data.authenticatorSelection).to.deep.include({ residentKey: 'required', userVerification: 'required' });
    expect(data.timeout).to.equal(300000);
    expect(data.excludeCredentials).to.deep.equal([]);

    const authenticator = new SoftAuthenticator(SITE_ORIGIN);
    const made = await site.post('/api/auth/passkeys/register', {
      response: authenticator.register(data),
      name: 'Phone',
    });
    expect(made.status, made.text).to.equal(201);
    expect(made.body.data).to.have.all.keys('id', 'name', 'created_at', 'last_used_at', 'backed_up');
    expect(made.body.data).to.deep.include({ name: 'Phone', last_used_at: null, backed_up: true });
    const stored = await db()('passkeys').where({ id: made.body.data.id }).first();
    expect(stored.credential_id).to.equal(authenticator.credentials[0].id);
    expect(stored.account_id).to.equal(account.id);

    // The next options leave the registered one out; an unnamed passkey is "Passkey"; newest first.
    const next = await site.post('/api/auth/passkeys/register/options', {});
    expect(next.body.data.excludeCredentials.map((c: { id: string }) => c.id)).to.deep.equal([stored.credential_id]);
    const second = await site.post('/api/auth/passkeys/register', {
      response: new SoftAuthenticator(SITE_ORIGIN).register(next.body.data),
    });
    expect(second.body.data.name).to.equal('Passkey');
    const listed = await site.get('/api/auth/passkeys');
    expect(listed.headers.get('cache-control')).to.equal('no-store');
    expect(listed.body.data.map((p: { id: string }) => p.id)).to.deep.equal([second.body.data.id, made.body.data.id]);
  });

  it('refuses an answer for another origin, relying party, without user verification, or to no live challenge', async () => {
    const { site, account } = await signedInClient(app.client);
    const authenticator = new SoftAuthenticator(SITE_ORIGIN);
    const bends: Array<[string, Bend]> = [
      ['another origin', { origin: 'https://evil.example' }],
      ['another relying party', { rpId: 'evil.example' }],
      ['no user verification', { userVerified: false }],
      ['a challenge never handed out', { challenge: Buffer.from('made up by the client').toString('base64url') }],
    ];
    for (const [what, bend] of bends) {
      const res = await register(site, authenticator, bend);
      expect(refusal(res), what).to.deep.equal([400, 'invalid_request', 'passkey_invalid']);
    }
    expect(await count(account.id)).to.equal(0);
  });

  it('uses a challenge once, for five minutes, for the account it was given to and for registering only', async () => {
    const { site, account } = await signedInClient(app.client);
    const other = await signedInClient(app.client);
    const authenticator = new SoftAuthenticator(SITE_ORIGIN);

    const options = (await site.post('/api/auth/passkeys/register/options', {})).body.data;
    const response = authenticator.register(options);
    expect((await site.post('/api/auth/passkeys/register', { response })).status).to.equal(201);
    const replayed = await site.post('/api/auth/passkeys/register', { response });
    expect(refusal(replayed), 'replayed').to.deep.equal([400, 'invalid_request', 'passkey_invalid']);

    const late = (await site.post('/api/auth/passkeys/register/options', {})).body.data;
    await db()('passkey_challenges')
      .where({ challenge: late.challenge })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const expired = await site.post('/api/auth/passkeys/register', { response: authenticator.register(late) });
    expect(refusal(expired), 'expired').to.deep.equal([400, 'invalid_request', 'passkey_invalid']);

    // Another account's challenge, answered from this session: not this account's to use.
    const theirs = (await other.site.post('/api/auth/passkeys/register/options', {})).body.data;
    const stolen = await site.post('/api/auth/passkeys/register', { response: authenticator.register(theirs) });
    expect(refusal(stolen), 'another account’s').to.deep.equal([400, 'invalid_request', 'passkey_invalid']);

    // A sign-in challenge is not a registration's.
    const signIn = (await new SiteClient(app.client).post('/api/auth/passkeys/sign-in/options', {})).body.data;
    const crossed = await site.post('/api/auth/passkeys/register', {
      response: authenticator.register({ ...late, challenge: signIn.challenge }),
    });
    expect(refusal(crossed), 'a sign-in challenge').to.deep.equal([400, 'invalid_request', 'passkey_invalid']);
    expect(await count(account.id)).to.equal(1);
    expect(await count(other.account.id)).to.equal(0);
  });

  it('refuses a credential another account registered already, and leaves it theirs', async () => {
    const first = await signedInClient(app.client);
    const second = await signedInClient(app.client);
    const authenticator = new SoftAuthenticator(SITE_ORIGIN);
    expect((await register(first.site, authenticator)).status).to.equal(201);
    const [held] = authenticator.credentials;
    const again = await register(second.site, authenticator, { credentialId: held.id });
    expect(refusal(again)).to.deep.equal([400, 'invalid_request', 'passkey_invalid']);
    expect(await count(second.account.id)).to.equal(0);
    const stored = await db()('passkeys').where({ credential_id: held.id });
    expect(stored.map((row: { account_id: string }) => row.account_id)).to.deep.equal([first.account.id]);
  });

  it('refuses bodies of the wrong shape with the field', async () => {
    const { site } = await signedInClient(app.client);
    const options = (await site.post('/api/auth/passkeys/register/options', {})).body.data;
    const response = new SoftAuthenticator(SITE_ORIGIN).register(options);
    const bodies: Array<[unknown, string]> = [
      [{}, 'response'],
      [{ response, name: 'x'.repeat(61) }, 'name'],
      [{ response, name: '' }, 'name'],
      [{ response, name: '   ' }, 'name'],
      [{ response, name: 'a\u0007b' }, 'name'],
      [{ response, name: 7 }, 'name'],
      [{ response, colour: 'red' }, 'colour'],
      [{ response: { ...response, type: 'password' } }, 'response.type'],
      [
        { response: { ...response, response: { ...response.response, clientDataJSON: 'not base64url!' } } },
        'response.response.clientDataJSON',
      ],
      [
        { response: { ...response, response: { clientDataJSON: response.response.clientDataJSON } } },
        'response.response.attestationObject',
      ],
    ];
    for (const [body, field] of bodies) {
      const res = await site.post('/api/auth/passkeys/register', body);
      const what = JSON.stringify(body).slice(0, 60);
      expect([res.status, res.body.error.code, res.body.error.field], what).to.deep.equal([
        400,
        'invalid_request',
        field,
      ]);
      expect(res.body.error.reason, what).to.be.oneOf([
        'missing',
        'wrong_type',
        'too_long',
        'too_short',
        'bad_format',
        'unknown_field',
        'not_allowed',
      ]);
    }
    // Sixty characters is a name.
    const named = await site.post('/api/auth/passkeys/register', { response, name: 'é'.repeat(60) });
    expect(named.status).to.equal(201);
  });

  it('keeps at most 10 passkeys, also when two registrations finish at once', async () => {
    const { site, account } = await signedInClient(app.client);
    const authenticator = new SoftAuthenticator(SITE_ORIGIN);
    for (let i = 0; i < 9; i += 1) expect((await register(site, authenticator)).status).to.equal(201);
    const first = (await site.post('/api/auth/passkeys/register/options', {})).body.data;
    const second = (await site.post('/api/auth/passkeys/register/options', {})).body.data;
    const answers = await Promise.all(
      [first, second].map((options) =>
        site.post('/api/auth/passkeys/register', { response: authenticator.register(options) }),
      ),
    );
    expect(answers.map((res) => res.status).sort()).to.deep.equal([201, 409]);
    expect(answers.find((res) => res.status === 409)!.body.error.reason).to.equal('passkeys_full');
    expect(await count(account.id)).to.equal(10);
    const more = await site.post('/api/auth/passkeys/register/options', {});
    expect(refusal(more)).to.deep.equal([409, 'conflict', 'passkeys_full']);
  });

  it('renames and deletes the account’s own passkeys only; the last one may go', async () => {
    const { site, account } = await signedInClient(app.client);
    const other = await signedInClient(app.client);
    const made = await register(site, new SoftAuthenticator(SITE_ORIGIN), {}, 'Phone');
    const id = made.body.data.id as string;

    const renamed = await site.patch(`/api/auth/passkeys/${id}`, { name: 'Old phone' });
    expect(renamed.status).to.equal(200);
    expect(renamed.body.data).to.deep.include({ id, name: 'Old phone' });
    for (const [body, field] of [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(61) }, 'name'],
    ] as const) {
      const res = await site.patch(`/api/auth/passkeys/${id}`, body);
      expect([res.status, res.body.error.field]).to.deep.equal([400, field]);
    }
    for (const path of [
      `/api/auth/passkeys/${id}`,
      '/api/auth/passkeys/not-an-id',
      '/api/auth/passkeys/00000000-0000-4000-8000-000000000000',
    ]) {
      if (path.endsWith(id)) {
        expect(refusal(await other.site.patch(path, { name: 'Mine now' }))).to.deep.equal([
          404,
          'not_found',
          'passkey_not_found',
        ]);
        expect(refusal(await other.site.delete(path))).to.deep.equal([404, 'not_found', 'passkey_not_found']);
      } else {
        expect(refusal(await site.patch(path, { name: 'x' }))).to.deep.equal([404, 'not_found', 'passkey_not_found']);
        expect(refusal(await site.delete(path))).to.deep.equal([404, 'not_found', 'passkey_not_found']);
      }
    }
    expect((await db()('passkeys').where({ id }).first()).name).to.equal('Old phone');

    const deleted = await site.delete(`/api/auth/passkeys/${id}`);
    expect([deleted.status, deleted.body]).to.deep.equal([200, { data: { deleted: true } }]);
    expect(await count(account.id)).to.equal(0);
    expect(refusal(await site.delete(`/api/auth/passkeys/${id}`))).to.deep.equal([
      404,
      'not_found',
      'passkey_not_found',
    ]);
  });

  it('refuses a session that owes its second factor, keys, other origins and no session at all', async () => {
    const owing = await buildAccount({ twoFactor: true });
    const site = new SiteClient(app.client);
    await site.post('/api/auth/sign-in', { email: owing.email, password: owing.password });
    const id = '00000000-0000-4000-8000-000000000000';
    const calls: Array<[string, string, unknown?]> = [
      ['POST', '/api/auth/passkeys/register/options', {}],
      ['POST', '/api/auth/passkeys/register', { response: {} }],
      ['GET', '/api/auth/passkeys'],
      ['PATCH', `/api/auth/passkeys/${id}`, { name: 'x' }],
      ['DELETE', `/api/auth/passkeys/${id}`],
    ];
    for (const [method, path, body] of calls) {
      const res = await site.request(method, path, { body });
      expect(refusal(res), `${method} ${path} owing`).to.deep.equal([403, 'forbidden', 'mfa_required']);
      const anonymous = await new SiteClient(app.client).request(method, path, { body });
      expect(anonymous.status, `${method} ${path} anonymous`).to.equal(401);
    }
    const { site: signed, account } = await signedInClient(app.client);
    const { token } = await appWithKey(account.id);
    const withKey = await app.client.post('/api/auth/passkeys/register/options', {
      body: {},
      headers: { authorization: `Bearer ${token}`, origin: SITE_ORIGIN },
    });
    expect(withKey.status).to.equal(403);
    signed.origin = 'https://elsewhere.example';
    expect(refusal(await signed.post('/api/auth/passkeys/register/options', {}))).to.deep.equal([
      403,
      'forbidden',
      'cross_origin',
    ]);
  });

  it('asks a passwordless account for a sign-in from the last 15 minutes to register or delete (rule 11)', async () => {
    const { site, sessionId, account } = await passwordlessClient(app.client);
    const authenticator = new SoftAuthenticator(SITE_ORIGIN);
    const made = await register(site, authenticator);
    expect(made.status).to.equal(201);
    const options = (await site.post('/api/auth/passkeys/register/options', {})).body.data;
    await ageSession(sessionId, 16);
    const late = [
      await site.post('/api/auth/passkeys/register/options', {}),
      await site.post('/api/auth/passkeys/register', { response: authenticator.register(options) }),
      await site.delete(`/api/auth/passkeys/${made.body.data.id}`),
    ];
    for (const res of late) {
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('RECENT_SIGN_IN_REQUIRED');
      expect(res.body.message).to.be.a('string');
      expect(res.body.error).to.deep.include({ code: 'forbidden', reason: 'reauthentication_required' });
    }
    // Renaming and listing are not what rule 11 names.
    expect((await site.patch(`/api/auth/passkeys/${made.body.data.id}`, { name: 'Laptop' })).status).to.equal(200);
    expect((await site.get('/api/auth/passkeys')).body.data).to.have.length(1);
    expect(await count(account.id)).to.equal(1);
    // An account with a password is not asked.
    const withPassword = await signedInClient(app.client);
    await ageSession(withPassword.sessionId, 60);
    expect((await register(withPassword.site, authenticator)).status).to.equal(201);
  });

  it('is in the export without its key, and stays when the account’s data is deleted', async () => {
    const { site, account, password } = await signedInClient(app.client);
    const made = await register(site, new SoftAuthenticator(SITE_ORIGIN), {}, 'Phone');
    const exported = await site.get('/api/v1/account/export');
    expect(exported.status, exported.text).to.equal(200);
    const text = exported.text;
    const rows = JSON.parse(text).data.passkeys;
    expect(rows).to.have.length(1);
    expect(rows[0]).to.deep.include({ id: made.body.data.id, name: 'Phone', backed_up: true });
    const stored = await db()('passkeys').where({ id: made.body.data.id }).first();
    expect(text).not.to.include(stored.credential_id);
    expect(text).not.to.include(Buffer.from(stored.public_key).toString('base64'));
    expect(Object.keys(rows[0])).not.to.include.members(['public_key', 'credential_id', 'counter']);

    const deleted = await site.delete('/api/v1/account/data?category=everything', { body: { password } });
    expect(deleted.status, deleted.text).to.equal(200);
    expect(await count(account.id)).to.equal(1);
  });
});
