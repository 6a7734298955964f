// The outbound guard against real https servers on loopback, reached through the test door.
import { createServer } from 'node:net';
import { gzipSync, brotliCompressSync } from 'node:zlib';
import { expect } from 'chai';
import { guardedFetch, type GuardedFetchOptions } from '../../shared/platform/net/guarded-fetch.js';
import { OutboundRefused, type RefusalReason } from '../../shared/platform/net/outbound-refused.js';
import { enterDoor, startFakeHost, type FakeHost } from '../helpers/fake-host.js';
import { testCertificates } from '../helpers/test-ca.js';

async function refusal(url: string, options: GuardedFetchOptions = {}): Promise<OutboundRefused> {
  try {
    await guardedFetch(url, options);
  } catch (error) {
    expect(error).to.be.instanceOf(OutboundRefused);
    return error as OutboundRefused;
  }
  throw new Error(`expected ${url} to be refused`);
}

async function expectRefused(url: string, reason: RefusalReason, options: GuardedFetchOptions = {}) {
  const error = await refusal(url, options);
  expect(error.reason, error.message).to.equal(reason);
  return error;
}

const neverResolve = async (): Promise<string[]> => {
  throw new Error('the resolver must not be asked');
};

describe('guardedFetch', () => {
  let host: FakeHost;

  before(async () => {
    host = await startFakeHost({
      routes: {
        '/': { headers: { 'content-type': 'text/html', 'x-custom': 'yes' }, body: '<!doctype html><p>hi' },
        '/hop1': { status: 302, headers: { location: '/hop2' } },
        '/hop2': { status: 301, headers: { location: '/hop3' } },
        '/hop3': { status: 307, headers: { location: '/hop4' } },
        '/hop4': { status: 308, headers: { location: '/' } },
        '/to-private': { status: 302, headers: { location: 'https://10.0.0.1/' } },
        '/to-metadata': { status: 302, headers: { location: 'https://169.254.169.254/latest/meta-data/' } },
        '/to-http': { status: 302, headers: { location: 'http://example.com/' } },
        '/to-loopback-name': { status: 302, headers: { location: 'https://localhost/' } },
        '/see-other': { status: 303, headers: { location: '/' } },
      },
    });
  });
  after(() => host.close());

  it('fetches a door host by name over verified TLS, sending the name as Host', async () => {
    const response = await guardedFetch(host.url('/'));
    expect(response).to.include({ status: 200, url: host.url('/'), address: '127.0.0.1' });
    expect(response.body.toString()).to.equal('<!doctype html><p>hi');
    expect(response.headers['x-custom']).to.equal('yes');
    expect(host.requests.at(-1)?.headers.host).to.equal(host.name);
  });

  it('follows three redirects, re-checking each, and refuses a fourth', async () => {
    const followed = await guardedFetch(host.url('/hop2'));
    expect(followed.redirects).to.deep.equal([host.url('/hop3'), host.url('/hop4'), host.url('/')]);
    expect(followed.url).to.equal(host.url('/'));
    const error = await expectRefused(host.url('/hop1'), 'too_many_redirects');
    expect(error.url).to.equal(host.url('/'));
  });

  it('returns a redirect as it came when told not to follow', async () => {
    const response = await guardedFetch(host.url('/hop1'), { followRedirects: false });
    expect(response.status).to.equal(302);
    expect(response.headers.location).to.equal('/hop2');
  });

  it('turns a POST into a GET on 303', async () => {
    await guardedFetch(host.url('/see-other'), { method: 'POST', body: 'x' });
    expect(host.requests.slice(-2).map((request) => request.method)).to.deep.equal(['POST', 'GET']);
  });

  it('refuses redirects to private addresses, to loopback names and to http', async () => {
    expect((await expectRefused(host.url('/to-private'), 'address_denied')).url).to.equal('https://10.0.0.1/');
    await expectRefused(host.url('/to-metadata'), 'address_denied');
    await expectRefused(host.url('/to-loopback-name'), 'address_denied');
    expect((await expectRefused(host.url('/to-http'), 'scheme_denied')).url).to.equal('http://example.com/');
  });

  it('refuses schemes not allowed, and allows them when the caller says so', async () => {
    await expectRefused('http://example.com/', 'scheme_denied');
    await expectRefused('ftp://example.com/', 'scheme_denied', { allowedSchemes: ['https:', 'http:'] });
    await expectRefused('https://user:pw@example.com/', 'url_invalid');
  });

  it('refuses loopback by address or by a name outside the door', async () => {
    await expectRefused(`https://127.0.0.1:${host.port}/`, 'address_denied', { resolve: neverResolve });
    await expectRefused(`https://[::1]:${host.port}/`, 'address_denied', { resolve: neverResolve });
    await expectRefused(`https://localhost:${host.port}/`, 'address_denied');
  });

  for (const spelling of ['2130706433', '0177.0.0.1', '0x7f.1', '127.1', '0x7f000001', '[::ffff:127.0.0.1]']) {
    it(`judges the numeric host ${spelling} by its value, asking no resolver`, async () => {
      await expectRefused(`https://${spelling}:${host.port}/`, 'address_denied', { resolve: neverResolve });
    });
  }

  it('refuses a name when any DNS answer is private, even beside public ones', async () => {
    const resolve = async () => ['93.184.215.14', '10.1.2.3'];
    await expectRefused('https://mixed.example.com/', 'address_denied', { resolve });
    await expectRefused('https://v6.example.com/', 'address_denied', {
      resolve: async () => ['2606:4700::1', 'fd00:ec2::254'],
    });
  });

  it('says dns_failed when the name does not resolve', async () => {
    await expectRefused('https://nothing.example.com/', 'dns_failed', { resolve: async () => [] });
    await expectRefused('https://nothing.example.com/', 'dns_failed', {
      resolve: async () => Promise.reject(Object.assign(new Error('nope'), { code: 'ENOTFOUND' })),
    });
  });

  it('resolves once per hop and connects to the checked address, so a rebinding answer cannot move it', async () => {
    const answers = [['127.0.0.1'], ['10.0.0.1']];
    let calls = 0;
    const resolve = async () => answers[Math.min(calls++, 1)];
    const seenBefore = host.requests.length;
    const response = await guardedFetch(host.url('/'), { resolve });
    expect(response.address).to.equal('127.0.0.1');
    expect(calls).to.equal(1);
    expect(host.requests.length).to.equal(seenBefore + 1);
    // The next hop resolves again and meets the private answer: refused before any connection.
    calls = 0;
    await expectRefused(host.url('/see-other'), 'address_denied', { resolve });
    expect(calls).to.equal(2);
    expect(host.requests.length).to.equal(seenBefore + 2);
  });
});

describe('guardedFetch caps and failures', () => {
  let host: FakeHost;
  const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));

  before(async () => {
    host = await startFakeHost({
      routes: {
        '/gzip': { headers: { 'content-encoding': 'gzip' }, body: gzipSync('small and zipped') },
        '/br': { headers: { 'content-encoding': 'br' }, body: brotliCompressSync('small and brotli') },
        '/bomb': { headers: { 'content-encoding': 'gzip' }, body: bomb },
        '/big': { body: Buffer.alloc(2048, 'a') },
        '/garbage': { headers: { 'content-encoding': 'gzip' }, body: 'not gzip at all' },
        '/zstd': { headers: { 'content-encoding': 'zstd' }, body: 'x' },
        '/slow-body': (_request, response) => {
          response.writeHead(200, { 'content-type': 'text/html' });
          response.write('<!doctype html>');
        },
        '/no-answer': () => undefined,
      },
    });
  });
  after(() => host.close());

  it('decodes gzip and brotli bodies', async () => {
    expect((await guardedFetch(host.url('/gzip'))).body.toString()).to.equal('small and zipped');
    expect((await guardedFetch(host.url('/br'))).body.toString()).to.equal('small and brotli');
  });

  it('stops a gzip bomb at the cap', async () => {
    const started = Date.now();
    const error = await expectRefused(host.url('/bomb'), 'too_large', { maxBytes: 1024 * 1024 });
    expect(error.message).to.include('1048576');
    expect(Date.now() - started).to.be.below(3000);
  });

  it('caps plain bodies too', async () => {
    await expectRefused(host.url('/big'), 'too_large', { maxBytes: 1024 });
    expect((await guardedFetch(host.url('/big'), { maxBytes: 2048 })).body.length).to.equal(2048);
  });

  it('refuses bodies it cannot decode', async () => {
    await expectRefused(host.url('/garbage'), 'decode_failed');
    await expectRefused(host.url('/zstd'), 'decode_failed');
  });

  it('times out a body that stalls, and a server that never answers', async () => {
    const started = Date.now();
    await expectRefused(host.url('/slow-body'), 'timeout', { timeoutMs: 300 });
    await expectRefused(host.url('/no-answer'), 'timeout', { timeoutMs: 300 });
    expect(Date.now() - started).to.be.below(2000);
  });

  it('says tls_failed for a certificate nobody signed and for one naming another host', async () => {
    const untrusted = await startFakeHost({ certificate: 'untrusted', routes: { '/': { body: 'x' } } });
    const misnamed = await startFakeHost({ name: 'game.example.net', routes: { '/': { body: 'x' } } });
    try {
      await expectRefused(untrusted.url('/'), 'tls_failed');
      await expectRefused(misnamed.url('/'), 'tls_failed');
      expect(untrusted.requests).to.have.length(0);
    } finally {
      await Promise.all([untrusted.close(), misnamed.close()]);
    }
  });

  it('says connect_failed when nothing listens at the address', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const leave = enterDoor('closed.jogatina.test', `127.0.0.1:${port}`, (await testCertificates()).caFile);
    try {
      await expectRefused('https://closed.jogatina.test/', 'connect_failed');
    } finally {
      leave();
    }
  });

  it('keeps private addresses shut even for a door name', async () => {
    const leave = enterDoor('inside.jogatina.test', '10.0.0.7', (await testCertificates()).caFile);
    try {
      await expectRefused('https://inside.jogatina.test/', 'address_denied');
    } finally {
      leave();
    }
  });
});
