// Making a release live through the real route (spec arcade.md: POST .../live) for the rules the other
// files test only on submit or only through internals: a failed fresh check, a blocked network and a
// domain registered too recently refuse it; and events held while no live release had an events URL go
// out once a release that has one goes live.
import { expect } from 'chai';
import { config, resetConfigForTests } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import { clearRdapCache } from '../../shared/platform/net/rdap.js';
import { ensureSigningKeys } from '../../shared/identity/signing-keys.js';
import { arcadeDeveloper, enabledGame, gameWithPlayer, releaseBody, serveGame } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { startFakeHost, type FakeHost } from '../helpers/fake-host.js';
import { useJobWorker } from '../helpers/job-worker.js';
import { staffMember } from '../helpers/moderation.js';
import { useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

type Res = {
  status: number;
  body: { error?: { code?: string; reason?: string; field?: string; detail?: unknown } };
};
const refusal = (res: Res) => [res.status, res.body.error?.code, res.body.error?.reason];

/** An RDAP answer for the test domain: registered `daysAgo` days ago. */
const registered = (daysAgo: number) => ({
  headers: { 'content-type': 'application/rdap+json' },
  body: JSON.stringify({
    objectClassName: 'domain',
    ldhName: 'jogatina.test',
    events: [{ eventAction: 'registration', eventDate: new Date(Date.now() - daysAgo * 86_400_000).toISOString() }],
    entities: [{ roles: ['registrar'], vcardArray: ['vcard', [['fn', {}, 'text', 'Good Names']]] }],
  }),
});

describe('Arcade rules: making a release live', function () {
  this.timeout(60000);
  useCleanDatabase();
  useJobWorker(['url.check', 'email.send', 'data-event.deliver']);
  const app = useTestApp();
  const hosts: FakeHost[] = [];
  let rdap: FakeHost;

  before(async () => {
    await ensureSigningKeys(db(), config().secret);
    rdap = await startFakeHost();
  });
  after(() => Promise.all([rdap, ...hosts].map((h) => h.close())));

  /** A release created, checked by submit, and approved by a moderator, all through the routes. */
  async function approvedRelease(
    dev: Awaited<ReturnType<typeof arcadeDeveloper>>,
    host: FakeHost,
    overrides: Record<string, unknown> = {},
  ) {
    const base = `/api/v1/account/apps/${dev.app.id}/arcade`;
    const created = await dev.site.post(`${base}/releases`, releaseBody(host, overrides));
    expect(created.status, created.text).to.equal(201);
    const id = created.body.data.release.id as string;
    const submitted = await dev.site.post(`${base}/releases/${id}/submit`);
    expect(submitted.status, submitted.text).to.equal(200);
    const moderator = await staffMember(app.client, `mod_${id.slice(0, 8)}`);
    const approved = await moderator.site.post(`/api/v1/moderation/arcade/releases/${id}`, { decision: 'approve' });
    expect(approved.status, approved.text).to.equal(200);
    return { id, live: () => dev.site.post(`${base}/releases/${id}/live`) };
  }

  it('refuses check_failed, url_denied network and domain_too_new, then goes live once none applies', async () => {
    const dev = await arcadeDeveloper(app.client);
    await enabledGame(dev, 'live-refusals');
    const host = await startFakeHost();
    hosts.push(host);
    serveGame(host, dev.app.id);
    const { id, live } = await approvedRelease(dev, host);
    const liveId = async () =>
      (await db()('arcade_apps').where({ app_id: dev.app.id }).first('live_release_id')).live_release_id;
    const liveChecks = async () => (await db()('arcade_checks').where({ release_id: id, cause: 'live' })).length;

    // The host stops serving this app's proof: the fresh check fails and says why.
    host.routes['/.well-known/jogatina-arcade.txt'] = { headers: { 'content-type': 'text/plain' }, body: 'other\n' };
    const failed = await live();
    expect(refusal(failed)).to.deep.equal([409, 'conflict', 'check_failed']);
    expect(failed.body.error?.detail).to.deep.include({ passed: false, proof_ok: false });
    expect(await liveChecks()).to.equal(1);
    serveGame(host, dev.app.id);

    // The host's network is blocked (the fake host is on loopback): refused before any check is spent.
    await db()('arcade_blocked_networks').insert({ network: '127.0.0.0/8' });
    try {
      const blocked = await live();
      expect([...refusal(blocked), blocked.body.error?.detail, blocked.body.error?.field]).to.deep.equal([
        400,
        'invalid_request',
        'url_denied',
        'network',
        'entry_url',
      ]);
    } finally {
      await db()('arcade_blocked_networks').delete();
    }
    expect(await liveChecks()).to.equal(1);

    // The domain was registered 3 days ago.
    process.env.ARCADE_RDAP_URL = rdap.url('/domain/');
    resetConfigForTests();
    try {
      rdap.routes['/domain/jogatina.test'] = registered(3);
      clearRdapCache();
      expect(refusal(await live())).to.deep.equal([409, 'conflict', 'domain_too_new']);
      expect(await liveChecks()).to.equal(1);
      // An old registration passes the same lookup: the age alone refused it.
      rdap.routes['/domain/jogatina.test'] = registered(400);
      clearRdapCache();
      expect(await liveId()).to.equal(null);
      const wentLive = await live();
      expect(wentLive.status, JSON.stringify(wentLive.body)).to.equal(200);
    } finally {
      delete process.env.ARCADE_RDAP_URL;
      resetConfigForTests();
      clearRdapCache();
    }
    expect(await liveId()).to.equal(id);
  });

  it('sends the events held while the live release had no events URL once the route makes one with a URL live', async () => {
    const host = await startFakeHost();
    hosts.push(host);
    host.routes['/events'] = { status: 204 };
    // Live release 1 asks identify but names no events URL: the player's events wait.
    const { dev, player, appId } = await gameWithPlayer(app.client, host.origin, 'held-events', null);
    await player.site.patch(`/api/v1/account/arcade/grants/${appId}`, { nickname: 'Held One' });
    await player.site.delete(`/api/v1/account/arcade/grants/${appId}`);
    const record = async () => (await dev.site.get(`/api/v1/account/apps/${appId}/arcade`)).body.data.app;
    expect((await record()).data_events).to.deep.include({ pending: 2, held: 2, failed: 0 });

    serveGame(host, appId);
    const { live } = await approvedRelease(dev, host, {
      scopes: ['identify'],
      data_events_url: host.url('/events'),
    });
    // Approved is not live: the events still wait, and nothing was sent.
    expect((await record()).data_events).to.deep.include({ pending: 2, held: 2 });
    expect(host.requests.filter((r) => r.path === '/events')).to.have.length(0);

    const wentLive = await live();
    expect(wentLive.status, JSON.stringify(wentLive.body)).to.equal(200);
    expect(wentLive.body.data.app.releases.find((r: { live: boolean }) => r.live).number).to.equal(2);
    // The route itself queued them: no sweep runs in this test, so nothing else would send them.
    await until(async () => (await record()).data_events.pending === 0);
    expect((await record()).data_events).to.deep.equal({ pending: 0, held: 0, failed: 0, oldest_pending_at: null });
    const delivered = await db()('arcade_data_events').where({ app_id: appId }).orderBy('created_at').pluck('status');
    expect(delivered).to.deep.equal(['delivered', 'delivered']);
    const received = host.requests.filter((r) => r.path === '/events');
    expect(received.map((r) => r.headers['webhook-id']).sort()).to.deep.equal(
      (await db()('arcade_data_events').where({ app_id: appId }).pluck('id')).sort(),
    );
  });
});
