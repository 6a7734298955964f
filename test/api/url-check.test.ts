// runUrlCheck end to end against fake developer hosts on loopback, reached through the guard's test door.
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { runUrlCheck, type UrlCheckInput } from '../../shared/arcade/url-check.js';
import { startFakeHost, type FakeHost, type FakeRoute } from '../helpers/fake-host.js';

const APP_ID = '5d0c7a52-7a51-4c57-9f53-0a8b1c1d2e3f';
const SITE = 'https://jogatina.example';
const PAGE = '<!doctype html><title>Game</title><canvas></canvas>';
const PAGE_SHA = createHash('sha256').update(PAGE).digest('hex');

describe('runUrlCheck', () => {
  let host: FakeHost;
  let other: FakeHost;

  before(async () => {
    [host, other] = await Promise.all([startFakeHost(), startFakeHost({ routes: { '/': { body: PAGE } } })]);
  });
  after(() => Promise.all([host.close(), other.close()]));

  /** Replaces the host's routes: a good proof and entry unless the test overrides them. */
  function serve(routes: Record<string, FakeRoute> = {}): void {
    for (const path of Object.keys(host.routes)) delete host.routes[path];
    Object.assign(
      host.routes,
      {
        '/.well-known/jogatina-arcade.txt': {
          headers: { 'content-type': 'text/plain' },
          body: `other-app\r\n${APP_ID}\r\n`,
        },
        '/game/': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: PAGE },
      },
      routes,
    );
  }

  function check(input: Partial<UrlCheckInput> = {}, deps = {}) {
    return runUrlCheck({ appId: APP_ID, entryUrl: host.url('/game/'), publicOrigin: SITE, ...input }, deps);
  }

  it('passes a host with its proof, an HTML entry and no framing limits, with every member set', async () => {
    serve();
    expect(await check()).to.deep.equal({
      passed: true,
      proof_ok: true,
      redirect_ok: true,
      framing_ok: true,
      status_code: 200,
      location: host.url('/game/'),
      content_type: 'text/html; charset=utf-8',
      entry_sha256: PAGE_SHA,
      changed_since_approval: false,
      provider: 'unknown',
      network: 'unknown',
      signals: [],
      error: null,
    });
  });

  describe('the proof file', () => {
    const CASES: [string, FakeRoute | undefined, string][] = [
      ['missing', undefined, 'proof_missing'],
      ['naming other apps only', { body: 'other-app\nanother-one\n' }, 'proof_id_absent'],
      ['holding the id inside a longer line', { body: `id=${APP_ID}\n` }, 'proof_id_absent'],
      ['larger than 4 KB', { body: `${APP_ID}\n${'#'.repeat(5000)}` }, 'proof_too_large'],
      ['redirected', { status: 302, headers: { location: '/proof-elsewhere.txt' } }, 'proof_redirected'],
      ['forbidden', { status: 403 }, 'proof_status_403'],
    ];
    for (const [name, route, signal] of CASES) {
      it(`fails the check when ${name}`, async () => {
        serve({ '/proof-elsewhere.txt': { body: APP_ID } });
        if (route) host.routes['/.well-known/jogatina-arcade.txt'] = route;
        else delete host.routes['/.well-known/jogatina-arcade.txt'];
        const result = await check();
        expect(result).to.include({ passed: false, proof_ok: false, error: null, status_code: 200 });
        expect(result.signals).to.deep.equal([signal]);
      });
    }

    it('accepts the id with a byte order mark, spaces and upper case', async () => {
      serve({ '/.well-known/jogatina-arcade.txt': { body: `\uFEFF  ${APP_ID.toUpperCase()}  ` } });
      expect(await check()).to.include({ passed: true, proof_ok: true });
    });
  });

  describe('framing', () => {
    const CASES: [Record<string, string>, boolean, string[]][] = [
      [{ 'x-frame-options': 'SAMEORIGIN' }, false, ['x_frame_options']],
      [{ 'content-security-policy': "frame-ancestors 'none'" }, false, ['frame_ancestors_excludes_site']],
      [{ 'content-security-policy': "frame-ancestors 'self'" }, false, ['frame_ancestors_excludes_site']],
      [{ 'content-security-policy': "default-src 'self'; frame-ancestors https://jogatina.example" }, true, []],
      [{ 'content-security-policy': 'frame-ancestors https://*.example' }, true, []],
    ];
    for (const [headers, ok, signals] of CASES) {
      it(`${ok ? 'allows' : 'refuses'} ${JSON.stringify(headers)}`, async () => {
        serve({ '/game/': { headers: { 'content-type': 'text/html', ...headers }, body: PAGE } });
        const result = await check();
        expect(result).to.include({ framing_ok: ok, passed: ok });
        expect(result.signals).to.deep.equal(signals);
      });
    }
  });

  describe('the entry', () => {
    it('fails when it redirects to another origin, and says where it ended', async () => {
      serve({ '/game/': { status: 302, headers: { location: other.url('/') } } });
      const result = await check();
      expect(result).to.include({ passed: false, redirect_ok: false, proof_ok: true, location: other.url('/') });
      expect(result.signals).to.deep.equal(['redirected_to_other_origin', 'not_html']);
    });

    it('accepts redirects within its origin', async () => {
      serve({ '/start': { status: 301, headers: { location: '/game/' } } });
      const result = await check({ entryUrl: host.url('/start') });
      expect(result).to.include({ passed: true, redirect_ok: true, location: host.url('/game/') });
      expect(result.signals).to.deep.equal(['redirected_within_origin']);
    });

    it('fails content that is not HTML and statuses other than 200', async () => {
      serve({ '/game/': { headers: { 'content-type': 'application/json' }, body: '{}' } });
      expect(await check()).to.deep.include({ passed: false, content_type: 'application/json', signals: ['not_html'] });
      serve({ '/game/': { status: 500, headers: { 'content-type': 'text/html' }, body: 'oops' } });
      expect(await check()).to.deep.include({ passed: false, status_code: 500, signals: ['status_500'] });
    });

    it('tells whether the entry changed since approval', async () => {
      serve();
      expect(await check({ approvedSha256: PAGE_SHA })).to.include({ passed: true, changed_since_approval: false });
      const changed = await check({ approvedSha256: 'f'.repeat(64) });
      expect(changed).to.include({ passed: true, changed_since_approval: true, entry_sha256: PAGE_SHA });
      expect(changed.signals).to.deep.equal(['changed_since_approval']);
    });

    it('names the provider from headers and notes a change of provider', async () => {
      serve({
        '/game/': { headers: { 'content-type': 'text/html', server: 'Netlify', 'x-nf-request-id': '1' }, body: PAGE },
      });
      expect(await check({ approvedProvider: 'netlify' })).to.deep.include({ provider: 'netlify', signals: [] });
      const moved = await check({ approvedProvider: 'vercel' });
      expect(moved).to.deep.include({ passed: true, provider: 'netlify', signals: ['provider_changed'] });
    });
  });

  describe('hosts the guard refuses', () => {
    it('fails with address_denied for a name resolving to a private address, without throwing', async () => {
      serve();
      const result = await check({ entryUrl: 'https://intranet.example.com/' }, { resolve: async () => ['10.0.0.8'] });
      expect(result).to.include({ passed: false, error: 'address_denied', status_code: null, entry_sha256: null });
      expect(result.signals).to.include('entry_address_denied');
    });

    it('fails with address_denied when the entry redirects to the metadata address', async () => {
      serve({ '/game/': { status: 302, headers: { location: 'https://169.254.169.254/latest/' } } });
      const result = await check();
      expect(result).to.include({
        passed: false,
        error: 'address_denied',
        redirect_ok: false,
        proof_ok: true,
        location: 'https://169.254.169.254/latest/',
      });
    });

    it('fails with timeout when the entry stalls', async () => {
      serve({
        '/game/': (_request, response) => void response.writeHead(200, { 'content-type': 'text/html' }).write('<'),
      });
      const started = Date.now();
      expect(await check({}, { timeoutMs: 300 })).to.include({ passed: false, error: 'timeout' });
      expect(Date.now() - started).to.be.below(2000);
    });

    it('fails with tls_failed for a certificate nobody trusts', async () => {
      const untrusted = await startFakeHost({ certificate: 'untrusted', routes: { '/': { body: PAGE } } });
      try {
        expect(await check({ entryUrl: untrusted.url('/') })).to.include({ passed: false, error: 'tls_failed' });
      } finally {
        await untrusted.close();
      }
    });

    it('fails with url_invalid for text that is no URL', async () => {
      expect(await check({ entryUrl: 'not a url' })).to.include({ passed: false, error: 'url_invalid' });
    });
  });
});
