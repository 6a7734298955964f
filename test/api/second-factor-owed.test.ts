// A session that signed in with its password and still owes its second factor may read, pass the factor
// and sign out; every write under /api/v1 is 403 `mfa_required`. The writes are taken from the router,
// so a route added tomorrow is held to the rule without being listed here.
import { expect } from 'chai';
import { routeLayers } from '../../api/openapi/build-document.js';
import { currentTotp } from '../../shared/auth/totp.js';
import { db } from '../../shared/platform/db/knex.js';
import { appRouter } from '../helpers/app-router.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { buildAccount, PASSWORD } from '../helpers/factories.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

/** A value for each path parameter that the route would accept the shape of. */
function fill(path: string): string {
  return path.replace(/:(\w+)/g, (_, name: string) =>
    /id$/i.test(name) ? '00000000-0000-4000-8000-000000000000' : 'someone',
  );
}

describe('a session owing its second factor', () => {
  useCleanDatabase();
  const app = useTestApp();

  let writes: { method: string; path: string }[] = [];
  before(() => {
    writes = routeLayers(appRouter())
      .filter((layer) => layer.path.startsWith('/api/v1/'))
      .flatMap((layer) => layer.methods.filter((m) => m !== 'get').map((method) => ({ method, path: layer.path })));
  });

  async function owing() {
    const built = await buildAccount({ twoFactor: true });
    const site = new SiteClient(app.client);
    const res = await site.post('/api/auth/sign-in', { email: built.email, password: PASSWORD });
    expect(res.body.data.second_factor_required).to.equal(true);
    return { ...built, site };
  }

  it('finds the writes to check in the router', () => {
    const names = writes.map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(names.length).to.be.greaterThan(60);
    for (const expected of ['POST /api/v1/account/apps', 'POST /api/v1/account/keys', 'PATCH /api/v1/profile']) {
      expect(names).to.include(expected);
    }
  });

  it('gets 403 mfa_required on every write under /api/v1, and nothing is written', async () => {
    const { site, account } = await owing();
    const answers: string[] = [];
    for (const { method, path } of writes) {
      const res = await site.request(method.toUpperCase(), fill(path), { body: {} });
      answers.push(`${method.toUpperCase()} ${path}: ${res.status} ${res.body?.error?.reason ?? ''}`.trim());
    }
    const wrong = answers.filter((line) => !line.endsWith(': 403 mfa_required'));
    expect(wrong).to.deep.equal([]);
    expect(await db()('apps').where({ account_id: account.id })).to.have.length(0);
    expect(await db()('api_keys').where({ account_id: account.id })).to.have.length(0);
  });

  it('may read, pass its second factor, then write; and may sign out', async () => {
    const { site, totpSecret } = await owing();
    expect((await site.get('/api/v1/me')).status).to.equal(200);
    expect((await site.get('/api/v1/account/apps')).status).to.equal(200);
    expect((await site.post('/api/auth/two-factor', { code: currentTotp(totpSecret!) })).status).to.equal(200);
    expect((await site.post('/api/v1/account/apps', { name: 'After the factor' })).status).to.equal(201);
    const other = await owing();
    expect((await other.site.post('/api/auth/sign-out')).status).to.be.oneOf([200, 204]);
  });

  it('does not touch a session of an account without two-factor, nor API keys', async () => {
    const built = await buildAccount();
    const site = new SiteClient(app.client);
    await site.post('/api/auth/sign-in', { email: built.email, password: PASSWORD });
    expect((await site.post('/api/v1/account/apps', { name: 'No second factor' })).status).to.equal(201);
  });
});
