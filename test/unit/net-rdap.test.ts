// Domain registration dates from RDAP, fetched through the guard from a fake RDAP server.
import { expect } from 'chai';
import { clearRdapCache, domainRegisteredAt, domainRegistration } from '../../shared/platform/net/rdap.js';
import { startFakeHost, type FakeHost } from '../helpers/fake-host.js';

function rdapDomain(registered: string | null, registrar = 'Registro Exemplo Ltda') {
  return JSON.stringify({
    objectClassName: 'domain',
    events: [
      ...(registered ? [{ eventAction: 'registration', eventDate: registered }] : []),
      { eventAction: 'expiration', eventDate: '2030-01-01T00:00:00Z' },
    ],
    entities: [
      { roles: ['registrant'], vcardArray: ['vcard', [['fn', {}, 'text', 'Someone']]] },
      {
        roles: ['registrar'],
        vcardArray: [
          'vcard',
          [
            ['version', {}, 'text', '4.0'],
            ['fn', {}, 'text', registrar],
          ],
        ],
      },
    ],
  });
}

describe('domainRegisteredAt', () => {
  let rdap: FakeHost;
  let base: string;

  before(async () => {
    rdap = await startFakeHost({
      routes: {
        '/domain/example.com': {
          headers: { 'content-type': 'application/rdap+json' },
          body: rdapDomain('2001-02-03T04:05:06Z'),
        },
        '/domain/exemplo.com.br': { status: 302, headers: { location: '/registry/exemplo.com.br' } },
        '/registry/exemplo.com.br': { body: rdapDomain('2026-11-01T00:00:00Z', 'NIC.br') },
        '/domain/no-date.org': { body: rdapDomain(null) },
        '/domain/broken.net': { body: '{ not json' },
        '/domain/flaky.net': { status: 503 },
      },
    });
    base = rdap.url('/domain/');
  });
  after(() => rdap.close());
  beforeEach(() => clearRdapCache());

  it('finds the registration event of the registrable domain', async () => {
    const date = await domainRegisteredAt('play.games.example.com', { baseUrl: base });
    expect(date?.toISOString()).to.equal('2001-02-03T04:05:06.000Z');
    expect(rdap.requests.at(-1)?.path).to.equal('/domain/example.com');
    expect(rdap.requests.at(-1)?.headers.accept).to.include('application/rdap+json');
  });

  it('follows the bootstrap redirect and names the registrar', async () => {
    const record = await domainRegistration('jogo.exemplo.com.br', { baseUrl: base });
    expect(record).to.deep.include({ domain: 'exemplo.com.br', registrar: 'NIC.br', answered: true });
    expect(record?.registeredAt?.toISOString()).to.equal('2026-11-01T00:00:00.000Z');
  });

  it('answers from memory for a day', async () => {
    let now = Date.parse('2026-11-22T00:00:00Z');
    const options = { baseUrl: base, now: () => now };
    const before = rdap.requests.length;
    await domainRegisteredAt('example.com', options);
    now += 23 * 60 * 60 * 1000;
    await domainRegisteredAt('www.example.com', options);
    expect(rdap.requests.length).to.equal(before + 1);
    now += 2 * 60 * 60 * 1000;
    await domainRegisteredAt('example.com', options);
    expect(rdap.requests.length).to.equal(before + 2);
  });

  it('gives null when the domain is unknown, has no date, or RDAP fails', async () => {
    expect(await domainRegisteredAt('unknown.example.org', { baseUrl: base })).to.equal(null);
    expect(await domainRegisteredAt('no-date.org', { baseUrl: base })).to.equal(null);
    expect(await domainRegistration('broken.net', { baseUrl: base })).to.deep.include({ answered: false });
    expect(await domainRegistration('flaky.net', { baseUrl: base })).to.deep.include({ answered: false });
    expect(await domainRegisteredAt('127.0.0.1', { baseUrl: base })).to.equal(null);
  });

  it("asks nothing for a site under a private suffix: its age is unknown, not the hosting company's", async () => {
    rdap.routes['/domain/github.io'] = { body: rdapDomain('2008-02-08T00:00:00Z') };
    rdap.routes['/domain/my-game.github.io'] = { body: rdapDomain('2008-02-08T00:00:00Z') };
    const before = rdap.requests.length;
    expect(await domainRegistration('my-game.github.io', { baseUrl: base })).to.equal(null);
    expect(await domainRegistration('play.my-game.pages.dev', { baseUrl: base })).to.equal(null);
    expect(rdap.requests.length).to.equal(before);
    // An ICANN suffix of several labels is still asked about its registrable domain.
    await domainRegistration('www.city.kawasaki.jp', { baseUrl: base });
    expect(rdap.requests.at(-1)?.path).to.equal('/domain/city.kawasaki.jp');
  });

  it('asks only through the guard: a private RDAP address is refused, not fetched', async () => {
    const record = await domainRegistration('example.com', { baseUrl: 'https://10.0.0.1/domain/' });
    expect(record).to.deep.include({ registeredAt: null, answered: false });
  });

  it('retries a failure after ten minutes, not a day', async () => {
    let now = Date.parse('2026-11-22T00:00:00Z');
    const options = { baseUrl: base, now: () => now };
    const before = rdap.requests.length;
    await domainRegistration('flaky.net', options);
    await domainRegistration('flaky.net', options);
    now += 11 * 60 * 1000;
    await domainRegistration('flaky.net', options);
    expect(rdap.requests.length).to.equal(before + 2);
  });
});
