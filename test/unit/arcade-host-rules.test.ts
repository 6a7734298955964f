// The domain-age rule by the Public Suffix List: a game on a site under a private suffix (`github.io`,
// `pages.dev`) is neither refused nor passed on the hosting company's age; its own age is unknown, as
// when RDAP cannot answer. The hosts resolve through the guard's test door, RDAP is a fake host.
import { expect } from 'chai';
import { refuseBlockedHost } from '../../shared/arcade/host-rules.js';
import { db } from '../../shared/platform/db/knex.js';
import type { ApiError } from '../../shared/platform/errors.js';
import { clearRdapCache } from '../../shared/platform/net/rdap.js';
import { enterDoor, startFakeHost, type FakeHost } from '../helpers/fake-host.js';
import { testCertificates } from '../helpers/test-ca.js';

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
    await refuseBlockedHost(db(), 'https://my-game.github.io/index.html', rdap.url('/domain/'));
    await refuseBlockedHost(db(), 'https://new.my-game.pages.dev/', rdap.url('/domain/'));
    expect(rdap.requests.length).to.equal(before);
  });

  it('still refuses a young domain under a public suffix (the rule is not switched off)', async () => {
    const error = await refuseBlockedHost(db(), 'https://play.young-studio.example/', rdap.url('/domain/')).then(
      () => null,
      (caught: ApiError) => caught,
    );
    expect([error?.status, error?.members.reason]).to.deep.equal([409, 'domain_too_new']);
    expect(rdap.requests.at(-1)?.path).to.equal('/domain/young-studio.example');
  });
});
