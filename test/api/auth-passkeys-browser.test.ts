// The whole passkey ceremony in a real headless Chromium, with the DevTools virtual authenticator (an
// internal, user-verifying platform authenticator that keeps discoverable credentials): a small page of
// the test, on the site's own origin, signs up, registers a passkey through `navigator.credentials.create`
// (by way of `@simplewebauthn/browser`, which the options are made for), signs out, signs in with it
// through `navigator.credentials.get` without naming anyone, and reaches a route that needs a session
// verified with two-factor. The page's origin is the app's PUBLIC_URL: a small front server of the test
// serves the page and its script and passes everything else to the real app.
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { chromiumOrReason, withPage } from '../helpers/chromium.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

// The package's browser bundle (its `unpkg` file, which its exports do not name): beside its Node entry.
const BROWSER_SCRIPT = readFileSync(
  path.join(
    path.dirname(createRequire(import.meta.url).resolve('@simplewebauthn/browser')),
    '../dist/bundle/index.umd.min.js',
  ),
);
const PAGE = '<!doctype html><title>passkeys</title><script src="/webauthn.js"></script>';

/** Serves the page and the script; passes every other request to the app, as one origin. */
function frontServer(app: () => TestApp): http.Server {
  // Its own address for the app's per-address limits, as a visitor of its own.
  const address = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  return http.createServer((req, res) => {
    if (req.url === '/passkeys.html') return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    if (req.url === '/webauthn.js') {
      return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(BROWSER_SCRIPT);
    }
    const target = new URL(req.url!, app().client.baseUrl);
    const upstream = http.request(
      target,
      { method: req.method, headers: { ...req.headers, 'x-forwarded-for': address } },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
}

/** What the page does, as text (the project compiles without DOM types). */
const CEREMONY = `async ({ email, terms }) => {
  const call = async (method, path, body) => {
    const res = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const steps = {};
  steps.signUp = await call('POST', '/api/auth/sign-up', { email, password: 'correct horse battery' });
  const registration = await call('POST', '/api/auth/passkeys/register/options', {});
  const created = await SimpleWebAuthnBrowser.startRegistration({ optionsJSON: registration.body.data });
  steps.register = await call('POST', '/api/auth/passkeys/register', { response: created, name: 'Chromium' });
  steps.signOut = await call('POST', '/api/auth/sign-out', {});
  steps.signedOut = (await call('GET', '/api/auth/session')).status;
  const signIn = await call('POST', '/api/auth/passkeys/sign-in/options', {});
  const asserted = await SimpleWebAuthnBrowser.startAuthentication({ optionsJSON: signIn.body.data });
  steps.signIn = await call('POST', '/api/auth/passkeys/sign-in', { response: asserted });
  steps.session = await call('GET', '/api/auth/session');
  steps.terms = await call('POST', '/api/v1/account/arcade/terms', { terms_version: terms });
  steps.passkeys = await call('GET', '/api/auth/passkeys');
  return steps;
}`;

describe('passkeys in a real browser', () => {
  useCleanDatabase();
  let app: TestApp;
  let front: http.Server;
  let origin: string;
  before(async () => {
    front = frontServer(() => app);
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    origin = `http://localhost:${(front.address() as AddressInfo).port}`;
    app = await startTestApp({ publicUrl: origin });
  });
  after(async () => {
    await new Promise((resolve) => front.close(resolve));
    await app.close();
  });

  it('registers a passkey, signs out, signs in with it and reaches a route that needs two-factor', async function () {
    this.timeout(600_000);
    const chromium = await chromiumOrReason();
    if ('reason' in chromium) {
      console.warn(`      skipped: ${chromium.reason}`);
      return this.skip();
    }
    const email = `browser-${randomInt(1e9)}@example.test`;
    const terms = (await db()('arcade_settings').first('terms_version')).terms_version as string;
    const { steps, held } = await withPage(chromium.path, async (page) => {
      const devtools = await page.createCDPSession();
      await devtools.send('WebAuthn.enable');
      const { authenticatorId } = await devtools.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      });
      await page.goto(`${origin}/passkeys.html`, { waitUntil: 'load' });
      const steps = (await page.evaluate(`(${CEREMONY})(${JSON.stringify({ email, terms })})`)) as Record<string, any>;
      const { credentials } = await devtools.send('WebAuthn.getCredentials', { authenticatorId });
      return { steps, held: credentials };
    });

    expect(steps.signUp.status, JSON.stringify(steps.signUp.body)).to.equal(201);
    expect(steps.register.status, JSON.stringify(steps.register.body)).to.equal(201);
    expect(steps.register.body.data).to.deep.include({ name: 'Chromium', last_used_at: null });
    expect(steps.signOut.status).to.equal(200);
    expect(steps.signedOut).to.equal(401);
    expect(steps.signIn.status, JSON.stringify(steps.signIn.body)).to.equal(200);
    expect(steps.signIn.body.data.account.email).to.equal(email);
    expect(steps.signIn.body.data.session.second_factor).to.equal('passed');
    expect(steps.session.body.data.session.second_factor).to.equal('passed');
    // POST /api/v1/account/arcade/terms answers 403 mfa_required to a session not verified with two-factor.
    expect(steps.terms.status, JSON.stringify(steps.terms.body)).to.equal(200);
    expect(steps.passkeys.body.data).to.have.length(1);
    expect(steps.passkeys.body.data[0].last_used_at).to.be.a('string');

    // The browser's authenticator holds the discoverable credential the server stored, and counted its use.
    const stored = await db()('passkeys').where({ id: steps.register.body.data.id }).first();
    expect(held).to.have.length(1);
    expect(held[0].isResidentCredential).to.equal(true);
    expect(Buffer.from(held[0].credentialId, 'base64').toString('base64url')).to.equal(stored.credential_id);
    expect(held[0].rpId).to.equal('localhost');
    expect(Number(stored.counter)).to.equal(held[0].signCount);
  });
});
