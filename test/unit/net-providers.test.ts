// Hosting provider names from headers and published ranges, and the registrable domain used for RDAP.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { networkOf, providerOf } from '../../shared/platform/net/providers.js';
import { registrableDomain, registrableDomainOf } from '../../shared/platform/net/registrable-domain.js';

describe('providerOf', () => {
  it('names providers by their response headers', () => {
    expect(providerOf(null, { server: 'GitHub.com' })).to.equal('github-pages');
    expect(providerOf(null, { 'x-nf-request-id': '01H' })).to.equal('netlify');
    expect(providerOf(null, { server: 'Vercel' })).to.equal('vercel');
    expect(providerOf(null, { 'cf-ray': '8a1b-GRU' })).to.equal('cloudflare');
    expect(providerOf(null, { 'x-amz-cf-id': 'abc' })).to.equal('cloudfront');
    expect(providerOf(null, { via: '1.1 abc.cloudfront.net (CloudFront)' })).to.equal('cloudfront');
    expect(providerOf(null, { 'X-Served-By': 'cache-gru-1' })).to.equal('fastly');
  });

  it('prefers the host over the CDN in front of it', () => {
    const githubThroughFastly = { server: 'GitHub.com', 'x-served-by': 'cache-gru-1', 'x-fastly-request-id': 'f' };
    expect(providerOf('151.101.1.1', githubThroughFastly)).to.equal('github-pages');
  });

  it('falls back to the published address ranges', () => {
    expect(providerOf('185.199.110.153', {})).to.equal('github-pages');
    expect(providerOf('104.21.5.9', { server: 'nginx' })).to.equal('cloudflare');
    expect(providerOf('2606:4700::6812:1', {})).to.equal('cloudflare');
    expect(providerOf('151.101.65.195', {})).to.equal('fastly');
    expect(providerOf('76.76.21.21', {})).to.equal('vercel');
    expect(providerOf('199.36.158.100', {})).to.equal('firebase');
    expect(providerOf('13.224.10.1', {})).to.equal('cloudfront');
  });

  it('says unknown for anything else', () => {
    expect(providerOf('93.184.215.14', { server: 'nginx' })).to.equal('unknown');
    expect(providerOf('127.0.0.1', {})).to.equal('unknown');
    expect(providerOf(null, {})).to.equal('unknown');
  });
});

describe('networkOf', () => {
  it('gives the published range that holds the address', () => {
    expect(networkOf('104.21.5.9')).to.equal('104.16.0.0/13');
    expect(networkOf('2a04:4e42:400::1')).to.equal('2a04:4e42::/32');
    expect(networkOf('185.199.108.153')).to.equal('185.199.108.153/32');
  });

  it('says unknown outside every range', () => {
    expect(networkOf('93.184.215.14')).to.equal('unknown');
    expect(networkOf(null)).to.equal('unknown');
  });
});

describe('providers.json', () => {
  it('names its source and date, and every range parses', () => {
    const data = JSON.parse(readFileSync(new URL('../../shared/platform/net/providers.json', import.meta.url), 'utf8'));
    expect(data._source.written).to.match(/^\d{4}-\d{2}-\d{2}$/);
    for (const provider of data.providers) expect(data._source, provider.name).to.have.property(provider.name);
  });
});

describe('registrableDomain', () => {
  // From the Public Suffix List, private section included.
  const CASES: [string, string | null, boolean?][] = [
    ['example.com', 'example.com'],
    ['games.cdn.example.com', 'example.com'],
    ['Jogo.Exemplo.COM.BR.', 'exemplo.com.br'],
    ['shop.example.co.uk', 'example.co.uk'],
    ['co.uk', null],
    // `*.kawasaki.jp` is a suffix with the exception `!city.kawasaki.jp`.
    ['shop.foo.kawasaki.jp', 'shop.foo.kawasaki.jp'],
    ['foo.kawasaki.jp', null],
    ['www.city.kawasaki.jp', 'city.kawasaki.jp'],
    // Private suffixes: the site, not the hosting company.
    ['user.github.io', 'user.github.io', true],
    ['cdn.user.github.io', 'user.github.io', true],
    ['github.io', null],
    ['my-game.pages.dev', 'my-game.pages.dev', true],
    ['play.my-game.netlify.app', 'my-game.netlify.app', true],
    // IDN: asked in ASCII whichever form the host came in.
    ['jogo.xn--e1afmkfd.xn--p1ai', 'xn--e1afmkfd.xn--p1ai'],
    ['jogo.пример.рф', 'xn--e1afmkfd.xn--p1ai'],
    ['localhost', null],
    ['example.com.', 'example.com'],
    ['93.184.215.14', null],
    ['[2606:4700::1]', null],
    ['a..b.com', null],
    ['', null],
  ];
  for (const [host, domain, privateSuffix = false] of CASES) {
    it(`reads ${JSON.stringify(host)} as ${domain}${privateSuffix ? ' (private suffix)' : ''}`, () => {
      expect(registrableDomain(host)).to.equal(domain);
      if (domain) expect(registrableDomainOf(host)).to.deep.equal({ domain, privateSuffix });
    });
  }
});
