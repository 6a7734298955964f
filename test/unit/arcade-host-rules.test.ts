// Where a game may be hosted (host-rules.ts). The blocked networks hold every address a host resolves to,
// not only the first, for the entry and the data events URL; the resolver is a stub answering several
// addresses, the networks are real rows in PostgreSQL. Then the domain-age rule by the Public Suffix List:
// a game on a site under a private suffix (`github.io`, `pages.dev`) is neither refused nor passed on the
// hosting company's age; its own age is unknown, as when RDAP cannot answer. Those hosts resolve through
// the guard's test door, RDAP is a fake host.
import { expect } from 'chai';
import {
  refuseBlockedAddresses,
  refuseBlockedHost,
  refuseBlockedNetworks,
  type ReleaseHosts,
} from '../../shared/arcade/host-rules.js';
import { db } from '../../shared/platform/db/knex.js';
import type { ApiError } from '../../shared/platform/errors.js';
import { clearRdapCache } from '../../shared/platform/net/rdap.js';
import { enterDoor, startFakeHost, type FakeHost } from '../helpers/fake-host.js';
import { testCertificates } from '../helpers/test-ca.js';

/** What a call refused with, or null when it passed. */
async function refusalOf(promise: Promise<unknown>) {
  try {
    await promise;
    return null;
  } catch (error) {
    const { status, members } = error as ApiError;
    return [status, members.reason, members.detail, members.field];
  }
}

describe('blocked networks: every address of a host', () => {
  // Public addresses only (the guard refuses private ones before this rule): two providers' ranges.
  const answers: Record<string, string[]> = {
    'play.mixed-hosting.com': ['93.184.215.14', '2606:4700::6810:1', '198.51.99.7'],
    'events.mixed-hosting.com': ['93.184.215.20', '198.51.99.8'],
    'play.clean-hosting.com': ['93.184.215.14', '2606:4700::6810:1'],
    'play.mapped-hosting.com': ['93.184.215.14', '::ffff:198.51.99.9'],
  };
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    const found = answers[hostname];
    if (!found) throw new Error(`no stub answer for ${hostname}`);
    return found;
  };
  const release = (entry: string, events: string | null = null): ReleaseHosts => ({
    entry_url: `https://${entry}/play/`,
    data_events_url: events && `https://${events}/events`,
  });

  beforeEach(async () => {
    asked.length = 0;
    await db()('arcade_blocked_networks').insert({ network: '198.51.99.0/24' });
  });
  afterEach(() => db()('arcade_blocked_networks').delete());

  it('refuses an entry host with one blocked address among public ones, not only when it is the first', async () => {
    expect(await refusalOf(refuseBlockedNetworks(db(), release('play.mixed-hosting.com'), { resolve }))).to.deep.equal([
      400,
      'url_denied',
      'network',
      'entry_url',
    ]);
    expect(
      await refusalOf(refuseBlockedHost(db(), release('play.mixed-hosting.com'), null, { resolve })),
    ).to.deep.equal([400, 'url_denied', 'network', 'entry_url']);
  });

  it('refuses a data events host with one blocked address, naming data_events_url', async () => {
    const mixedEvents = release('play.clean-hosting.com', 'events.mixed-hosting.com');
    expect(await refusalOf(refuseBlockedNetworks(db(), mixedEvents, { resolve }))).to.deep.equal([
      400,
      'url_denied',
      'network',
      'data_events_url',
    ]);
    expect(await refusalOf(refuseBlockedHost(db(), mixedEvents, null, { resolve }))).to.deep.equal([
      400,
      'url_denied',
      'network',
      'data_events_url',
    ]);
  });

  it('judges an IPv4-mapped IPv6 answer by the IPv4 address it carries', async () => {
    expect(await refusalOf(refuseBlockedNetworks(db(), release('play.mapped-hosting.com'), { resolve }))).to.deep.equal(
      [400, 'url_denied', 'network', 'entry_url'],
    );
    expect(await refusalOf(refuseBlockedAddresses(db(), ['::ffff:198.51.99.9'], 'url'))).to.deep.equal([
      400,
      'url_denied',
      'network',
      'url',
    ]);
  });

  it('passes hosts none of whose addresses is blocked, looking each host up once', async () => {
    const clean = release('play.clean-hosting.com', 'play.clean-hosting.com');
    expect(await refusalOf(refuseBlockedHost(db(), clean, null, { resolve }))).to.equal(null);
    expect(asked).to.deep.equal(['play.clean-hosting.com']);
    expect(await refusalOf(refuseBlockedAddresses(db(), ['93.184.215.14', '2606:4700::6810:1'], 'url'))).to.equal(null);
    // The same answers pass once the network is no longer blocked: the row alone refused them.
    await db()('arcade_blocked_networks').delete();
    expect(await refusalOf(refuseBlockedNetworks(db(), release('play.mixed-hosting.com'), { resolve }))).to.equal(null);
  });

  it('refuses a host the guard cannot take, unless told to leave it to the check', async () => {
    const nowhere = release('nowhere.mixed-hosting.com');
    expect(await refusalOf(refuseBlockedNetworks(db(), nowhere, { resolve }))).to.deep.equal([
      400,
      'url_denied',
      'network',
      'entry_url',
    ]);
    expect(await refusalOf(refuseBlockedNetworks(db(), nowhere, { resolve, passUnreachable: true }))).to.equal(null);
    // Left to the check only when unreachable: a blocked answer is refused all the same.
    const mixed = release('play.mixed-hosting.com');
    expect(await refusalOf(refuseBlockedNetworks(db(), mixed, { resolve, passUnreachable: true }))).to.deep.equal([
      400,
      'url_denied',
      'network',
      'entry_url',
    ]);
  });
});

describe('refuseBlockedHost: domain age by the Public Suffix List', () => {
  let rdap: FakeHost;
  const leave: (() => void)[] = [];

  const registered = (daysAgo: number) => ({
    headers: { 'content-type': 'application/rdap+json' },
    body: JSON.stringify({
      objectClassName: 'domain',
      events: [{ eventAction: 'registration', eventDate: new Date(Date.now() - daysAgo * 86_400_000).toISOString() }],
    }),
  });

  before(async () => {
    rdap = await startFakeHost();
    const { caFile } = await testCertificates();
    for (const name of ['my-game.github.io', 'new.my-game.pages.dev', 'play.young-studio.example']) {
      leave.push(enterDoor(name, '127.0.0.1:9', caFile));
    }
    // Both the hosting companies' domains and the sites would be too young if they were asked about.
    for (const domain of ['github.io', 'pages.dev', 'my-game.github.io', 'my-game.pages.dev', 'young-studio.example']) {
      rdap.routes[`/domain/${domain}`] = registered(2);
    }
  });
  after(async () => {
    for (const out of leave) out();
    await rdap.close();
  });
  beforeEach(() => clearRdapCache());

  it('does not ask RDAP about a site under a private suffix, and does not refuse it', async () => {
    const before = rdap.requests.length;
    const at = (entry_url: string) => ({ entry_url, data_events_url: null });
    await refuseBlockedHost(db(), at('https://my-game.github.io/index.html'), rdap.url('/domain/'));
    await refuseBlockedHost(db(), at('https://new.my-game.pages.dev/'), rdap.url('/domain/'));
    expect(rdap.requests.length).to.equal(before);
  });

  it('still refuses a young domain under a public suffix (the rule is not switched off)', async () => {
    const young = { entry_url: 'https://play.young-studio.example/', data_events_url: null };
    const error = await refuseBlockedHost(db(), young, rdap.url('/domain/')).then(
      () => null,
      (caught: ApiError) => caught,
    );
    expect([error?.status, error?.members.reason]).to.deep.equal([409, 'domain_too_new']);
    expect(rdap.requests.at(-1)?.path).to.equal('/domain/young-studio.example');
  });
});
