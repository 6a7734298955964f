// Every refusal a developer route gives (spec arcade.md: Errors), each caused for real: a local https
// developer host for the checks, a fake RDAP server for domain ages.
import { expect } from 'chai';
import { resetConfigForTests } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import { clearRdapCache } from '../../shared/platform/net/rdap.js';
import { publishTerms } from '../../shared/arcade/settings.js';
import { arcadeDeveloper, enabledGame, listingBody, releaseBody, serveGame } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { ageSession, appWithKey } from '../helpers/factories.js';
import { startFakeHost, type FakeHost } from '../helpers/fake-host.js';
import { useJobWorker } from '../helpers/job-worker.js';
import { staffMember } from '../helpers/moderation.js';
import { useTestApp } from '../helpers/test-app.js';

type Res = { status: number; body: { error?: { reason?: string; field?: string; detail?: unknown } } };
const refusal = (res: Res) => [res.status, res.body.error?.reason];

describe('Arcade: developer refusals', function () {
  this.timeout(60000);
  useCleanDatabase();
  useJobWorker(['url.check', 'email.send']);
  const app = useTestApp();
  let rdap: FakeHost;

  before(async () => {
    rdap = await startFakeHost();
  });
  after(() => rdap.close());

  const hosts: FakeHost[] = [];
  after(() => Promise.all(hosts.map((h) => h.close())));

  /** A game on a developer host of its own (an origin, once submitted, is its game's for good). */
  async function game(slug: string) {
    const dev = await arcadeDeveloper(app.client);
    await enabledGame(dev, slug);
    const host = await startFakeHost();
    hosts.push(host);
    serveGame(host, dev.app.id);
    const base = `/api/v1/account/apps/${dev.app.id}/arcade`;
    const release = async (overrides: Record<string, unknown> = {}) => {
      const res = await dev.site.post(`${base}/releases`, releaseBody(host, overrides));
      expect(res.status, res.text).to.equal(201);
      return res.body.data.release.id as string;
    };
    return { dev, base, release, host };
  }

  it('refuses callers: a key, another account, an app without a game, a session owing two-factor', async () => {
    const { dev, base } = await game('callers-game');
    const { token } = await appWithKey(dev.account.id, []);
    const keyed = await app.client.get(`${base}/releases`, { headers: { authorization: `Bearer ${token}` } });
    expect(keyed.status).to.equal(403);
    const other = await arcadeDeveloper(app.client);
    expect(refusal(await other.site.get(`${base}/releases`))).to.deep.equal([404, 'app_not_found']);
    expect(refusal(await other.site.get(`/api/v1/account/apps/${other.app.id}/arcade/releases`))).to.deep.equal([
      404,
      'app_not_found',
    ]);
    const owing = await arcadeDeveloper(app.client, { passTwoFactor: false });
    const res = await owing.site.get(`/api/v1/account/apps/${owing.app.id}/arcade/releases`);
    expect(refusal(res)).to.deep.equal([403, 'mfa_required']);
  });

  it('refuses bad bodies with the field named, and identify without an events URL', async () => {
    const { dev, base, host } = await game('fields-game');
    const put = (body: Record<string, unknown>) => dev.site.put(`${base}/listing`, body);
    const missing = await put({ ...listingBody(), name: undefined });
    expect([missing.status, missing.body.error.reason, missing.body.error.field]).to.deep.equal([
      400,
      'fields_invalid',
      'name',
    ]);
    const reserved = await put(listingBody({ name: 'Official Rocks' }));
    expect(reserved.body.error.field).to.equal('name_reserved');
    const post = (body: Record<string, unknown>) => dev.site.post(`${base}/releases`, body);
    expect(refusal(await post(releaseBody(host, { scopes: ['identify'] })))).to.deep.equal([
      400,
      'data_events_url_required',
    ]);
    expect(refusal(await post(releaseBody(host, { entry_url: 'http://rocks.example.com/' })))).to.deep.equal([
      400,
      'url_invalid',
    ]);
    const ip = await post(releaseBody(host, { entry_url: 'https://10.0.0.1/' }));
    expect([ip.status, ip.body.error.reason, ip.body.error.field]).to.deep.equal([400, 'url_denied', 'entry_url']);
    const lookalike = await post(releaseBody(host, { entry_url: 'https://аррӏе.com/' }));
    expect([lookalike.body.error.reason, lookalike.body.error.detail]).to.deep.equal(['url_denied', 'idn_confusable']);
    const third = await post(
      releaseBody(host, {
        third_parties: [
          { origin: 'https://cdn.jsdelivr.net', purpose: 'x' },
          { origin: 'ftp://x', purpose: 'y' },
        ],
      }),
    );
    expect(third.body.error.field).to.equal('third_parties.1.origin');
    expect(
      refusal(await dev.site.put(`${base}/releases/00000000-0000-4000-8000-000000000000`, releaseBody(host))),
    ).to.deep.equal([404, 'release_not_found']);
    expect(refusal(await dev.site.post(`${base}/listing/submit`))).to.deep.equal([404, 'listing_not_found']);
  });

  it('refuses a failed check, another game’s origin, and moves a release is not ready for', async () => {
    const { dev, base, release, host } = await game('checks-game');
    const id = await release();
    host.routes['/.well-known/jogatina-arcade.txt'] = { body: 'someone-else\n' };
    const failed = await dev.site.post(`${base}/releases/${id}/submit`);
    expect(refusal(failed)).to.deep.equal([409, 'check_failed']);
    expect(failed.body.error.detail).to.deep.include({ passed: false, proof_ok: false });
    expect(refusal(await dev.site.post(`${base}/releases/${id}/live`))).to.deep.equal([409, 'release_not_approved']);
    expect(refusal(await dev.site.post(`${base}/releases/${id}/withdraw`))).to.deep.equal([409, 'not_in_review']);
    serveGame(host, dev.app.id);
    expect((await dev.site.post(`${base}/releases/${id}/submit`)).status).to.equal(200);
    expect((await dev.site.post(`${base}/releases/${id}/withdraw`)).body.data.release.status).to.equal('withdrawn');

    const rival = await game('rival-game');
    // The rival points its release at the first game's host, whose origin is claimed.
    serveGame(host, rival.dev.app.id);
    const created = await rival.dev.site.post(`${rival.base}/releases`, releaseBody(host));
    const rivalId = created.body.data.release.id as string;
    expect(refusal(await rival.dev.site.post(`${rival.base}/releases/${rivalId}/submit`))).to.deep.equal([
      409,
      'origin_in_use',
    ]);
  });

  it('refuses making live an old approval or a game that moved to another provider', async () => {
    const { dev, base, release } = await game('live-game');
    const moderator = await staffMember(app.client, 'mod_refusals');
    const id = await release();
    expect((await dev.site.post(`${base}/releases/${id}/submit`)).status).to.equal(200);
    await moderator.site.post(`/api/v1/moderation/arcade/releases/${id}`, { decision: 'approve' });
    await db()('arcade_releases').where({ id }).update({ approval_provider: 'Netlify' });
    expect(refusal(await dev.site.post(`${base}/releases/${id}/live`))).to.deep.equal([409, 'provider_changed']);
    await db()('arcade_releases')
      .where({ id })
      .update({ approved_at: new Date(Date.now() - 91 * 86_400_000) });
    expect(refusal(await dev.site.post(`${base}/releases/${id}/live`))).to.deep.equal([409, 'approval_too_old']);
  });

  it('asks for a recent sign-in, the current terms, no publisher block and no suspension', async () => {
    const { dev, base, release, host } = await game('rules-game');
    const id = await release();
    await ageSession(dev.sessionId, 20);
    expect(refusal(await dev.site.post(`${base}/releases/${id}/submit`))).to.deep.equal([
      403,
      'reauthentication_required',
    ]);
    expect(refusal(await dev.site.post(`${base}/remove`))).to.deep.equal([403, 'reauthentication_required']);
    await ageSession(dev.sessionId, 0);
    await publishTerms(db(), '2099-02-02', 'Newer terms.');
    expect(refusal(await dev.site.post(`${base}/releases/${id}/submit`))).to.deep.equal([403, 'terms_required']);
    expect(refusal(await dev.site.post(`${base}/listing/submit`))).to.deep.equal([403, 'terms_required']);
    await db()('publisher_blocks').insert({ account_id: dev.account.id });
    expect(refusal(await dev.site.post(`${base}/releases`, releaseBody(host)))).to.deep.equal([
      403,
      'publisher_blocked',
    ]);
    expect(refusal(await dev.site.put(`${base}/listing`, listingBody()))).to.deep.equal([403, 'publisher_blocked']);
    await db()('infractions').insert({
      account_id: dev.account.id,
      reason: 'Suspensão',
      expires_at: new Date(Date.now() + 86_400_000),
    });
    expect(refusal(await dev.site.put(`${base}/listing`, listingBody()))).to.deep.equal([403, 'banned']);
  });

  it('refuses a blocked network or registrar and a young domain, before spending a check', async () => {
    const { dev, base, release } = await game('network-game');
    const id = await release();
    await db().raw("INSERT INTO arcade_blocked_networks (network) VALUES ('127.0.0.0/8')");
    const blocked = await dev.site.post(`${base}/releases/${id}/submit`);
    expect([
      blocked.status,
      blocked.body.error.reason,
      blocked.body.error.detail,
      blocked.body.error.field,
    ]).to.deep.equal([400, 'url_denied', 'network', 'entry_url']);
    await db()('arcade_blocked_networks').delete();
    expect(await db()('arcade_checks').where({ release_id: id })).to.have.length(0);

    const registered = (daysAgo: number, registrar = 'Good Names') => ({
      headers: { 'content-type': 'application/rdap+json' },
      body: JSON.stringify({
        objectClassName: 'domain',
        ldhName: 'jogatina.test',
        events: [{ eventAction: 'registration', eventDate: new Date(Date.now() - daysAgo * 86_400_000).toISOString() }],
        entities: [{ roles: ['registrar'], vcardArray: ['vcard', [['fn', {}, 'text', registrar]]] }],
      }),
    });
    process.env.ARCADE_RDAP_URL = rdap.url('/domain/');
    resetConfigForTests();
    try {
      rdap.routes['/domain/jogatina.test'] = registered(3);
      clearRdapCache();
      const young = await dev.site.post(`${base}/releases/${id}/submit`);
      expect([young.status, young.body.error.reason]).to.deep.equal([409, 'domain_too_new']);
      rdap.routes['/domain/jogatina.test'] = registered(400, 'Shady Names');
      clearRdapCache();
      await db()('arcade_blocked_registrars').insert({ name: 'shady names' });
      expect(refusal(await dev.site.post(`${base}/releases/${id}/submit`))).to.deep.equal([400, 'url_denied']);
    } finally {
      delete process.env.ARCADE_RDAP_URL;
      resetConfigForTests();
      clearRdapCache();
    }
  });

  it('allows 5 store-page and 5 release submissions a day per app, then 429', async () => {
    const { dev, base, release } = await game('busy-submits');
    const id = await release();
    const full = (name: string) =>
      db()('rate_limits').insert({ key: `attempt:${name}:${dev.app.id}`, points: 5, expire: Date.now() + 3_600_000 });
    await full('arcade-release-submit');
    const releases = await dev.site.post(`${base}/releases/${id}/submit`);
    expect([releases.status, typeof releases.body.error.retry_after]).to.deep.equal([429, 'number']);
    // Refused before its check: the day's checks are untouched.
    expect(await db()('arcade_checks').where({ release_id: id })).to.have.length(0);
    await dev.site.put(`${base}/listing`, listingBody());
    await full('arcade-listing-submit');
    expect((await dev.site.post(`${base}/listing/submit`)).status).to.equal(429);
  });

  it('allows 20 checks a day per app, then 429', async () => {
    const { dev, base, release } = await game('busy-checks');
    const id = await release();
    await db()('rate_limits').insert({
      key: `attempt:arcade-check:${dev.app.id}`,
      points: 20,
      expire: Date.now() + 3_600_000,
    });
    const res = await dev.site.post(`${base}/releases/${id}/check`);
    expect(res.status).to.equal(429);
    expect(res.body.error.retry_after).to.be.a('number');
  });
});
