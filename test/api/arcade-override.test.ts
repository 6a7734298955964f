// The development URL: the owner's machine and public hosts (resolved through the outbound guard), every
// refusal of the spec, the 24-hour life, `ready` and `blocked_reason`, and both daily and hourly limits.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { arcadeDeveloper, enabledGame, listingBody, releaseColumns } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { enterDoor, startFakeHost, type FakeHost } from '../helpers/fake-host.js';
import { testCertificates } from '../helpers/test-ca.js';
import { SITE_ORIGIN, useTestApp } from '../helpers/test-app.js';

type Res = { status: number; body: { error?: { reason?: string; field?: string; detail?: unknown } } };
const refusal = (res: Res) => [res.status, res.body.error?.reason, res.body.error?.detail];

describe('Arcade: the development URL', function () {
  this.timeout(30000);
  useCleanDatabase();
  const app = useTestApp();
  let host: FakeHost;

  before(async () => {
    host = await startFakeHost();
  });
  after(() => host.close());

  async function game(slug: string, withListing = true) {
    const dev = await arcadeDeveloper(app.client);
    await enabledGame(dev, slug);
    const base = `/api/v1/account/apps/${dev.app.id}/arcade/override`;
    if (withListing) await dev.site.put(`/api/v1/account/apps/${dev.app.id}/arcade/listing`, listingBody());
    const [release] = await db()('arcade_releases')
      .insert({ app_id: dev.app.id, number: 1, status: 'draft', ...releaseColumns() })
      .returning('id');
    return { dev, base, releaseId: release.id as string };
  }

  it('saves a URL on the owner’s machine for 24 hours, ready to open', async () => {
    const { dev, base, releaseId } = await game('local-dev');
    expect((await dev.site.get(base)).body).to.deep.equal({ data: { override: null } });
    const saved = await dev.site.put(base, { url: 'http://localhost:5173/game/', release_id: releaseId });
    expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
    const { override } = saved.body.data;
    expect(override).to.deep.include({
      url: 'http://localhost:5173/game/',
      origin: 'http://localhost:5173',
      host: 'localhost:5173',
      loopback: true,
      release_id: releaseId,
      release_number: 1,
      expired: false,
      ready: true,
      blocked_reason: null,
      changes_left: 19,
    });
    const life = Date.parse(override.expires_at) - Date.parse(override.set_at);
    expect(life).to.equal(24 * 3600 * 1000);
    await db()('arcade_overrides')
      .where({ app_id: dev.app.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect((await dev.site.get(base)).body.data.override).to.deep.include({
      expired: true,
      ready: false,
      blocked_reason: 'override_expired',
    });
    // Saving again renews it.
    await dev.site.put(base, { url: 'http://game.localhost:8080/', release_id: releaseId });
    expect((await dev.site.get(base)).body.data.override).to.deep.include({ expired: false, changes_left: 18 });
    expect((await dev.site.delete(base)).body).to.deep.equal({ data: { override: null } });
    expect((await dev.site.get(base)).body.data.override).to.equal(null);
  });

  it('accepts a public https host resolving to public addresses only', async () => {
    const { dev, base, releaseId } = await game('public-dev');
    const saved = await dev.site.put(base, { url: host.url('/beta/'), release_id: releaseId });
    expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
    expect(saved.body.data.override).to.deep.include({ loopback: false, host: host.name, ready: true });
    const { caFile } = await testCertificates();
    const leave = enterDoor('private.jogatina.test', '10.1.2.3', caFile);
    try {
      const res = await dev.site.put(base, { url: 'https://private.jogatina.test/', release_id: releaseId });
      expect(refusal(res)).to.deep.equal([400, 'url_denied', 'not_public']);
    } finally {
      leave();
    }
    // Another game's origin is theirs.
    await db()('arcade_claims').insert({ kind: 'origin', value: 'https://claimed.jogatina.test', app_id: dev.app.id });
    const other = await game('other-dev');
    const leaveClaimed = enterDoor('claimed.jogatina.test', `127.0.0.1:${host.port}`, caFile);
    try {
      const res = await other.dev.site.put(other.base, {
        url: 'https://claimed.jogatina.test/',
        release_id: other.releaseId,
      });
      expect(refusal(res)).to.deep.equal([409, 'origin_in_use', undefined]);
    } finally {
      leaveClaimed();
    }
  });

  it('refuses other addresses, the service’s own host, bad URLs, other releases and non-owners', async () => {
    const { dev, base, releaseId } = await game('refused-dev');
    const put = (url: unknown, release = releaseId) => dev.site.put(base, { url, release_id: release });
    expect(refusal(await put('https://192.168.1.10/'))).to.deep.equal([400, 'url_denied', 'ip_literal']);
    expect(refusal(await put('http://[::1]:3000/'))).to.deep.equal([400, 'url_denied', 'ip_literal']);
    const own = new URL(SITE_ORIGIN);
    expect(refusal(await put(`${own.origin}/`))).to.deep.equal([400, 'url_denied', 'service_host']);
    expect(refusal(await put('http://localhost:5173/?x=1'))[1]).to.equal('url_invalid');
    expect(refusal(await put('http://rocks.example.org/'))[1]).to.equal('url_invalid');
    expect(
      refusal(await dev.site.put(base, { url: 'http://localhost:1/', release_id: releaseId, extra: 1 }))[1],
    ).to.equal('fields_invalid');
    const [rejected] = await db()('arcade_releases')
      .insert({ app_id: dev.app.id, number: 2, status: 'rejected', ...releaseColumns() })
      .returning('id');
    expect(refusal(await put('http://localhost:5173/', rejected.id))[1]).to.equal('release_not_found');
    const stranger = await arcadeDeveloper(app.client);
    expect(refusal(await stranger.site.get(base))).to.deep.equal([403, 'not_owner', undefined]);
    expect(refusal(await stranger.site.delete(base))).to.deep.equal([403, 'not_owner', undefined]);
    const noGame = `/api/v1/account/apps/${stranger.app.id}/arcade/override`;
    expect(refusal(await stranger.site.get(noGame))).to.deep.equal([404, 'app_not_found', undefined]);
    const owing = await arcadeDeveloper(app.client, { passTwoFactor: false });
    expect(refusal(await owing.site.get(base))[1]).to.equal('mfa_required');
  });

  it('says why a saved URL cannot open, and answers banned and publisher_blocked', async () => {
    const { dev, base, releaseId } = await game('blocked-dev', false);
    await dev.site.put(base, { url: 'http://localhost:5173/', release_id: releaseId });
    expect((await dev.site.get(base)).body.data.override.blocked_reason).to.equal('listing_not_found');
    await db()('arcade_listings').insert({ app_id: dev.app.id, number: 1, status: 'draft', fields: null });
    await db()('arcade_apps').where({ app_id: dev.app.id }).update({ notice_kind: 'flagged', notice_at: new Date() });
    expect((await dev.site.get(base)).body.data.override.blocked_reason).to.equal('not_playable');
    await db()('arcade_apps').where({ app_id: dev.app.id }).update({ notice_kind: null, notice_at: null });
    await db()('arcade_releases').where({ id: releaseId }).update({ status: 'revoked' });
    expect((await dev.site.get(base)).body.data.override.blocked_reason).to.equal('release_not_found');
    await db()('publisher_blocks').insert({ account_id: dev.account.id });
    expect(refusal(await dev.site.put(base, { url: 'http://localhost:5173/', release_id: releaseId }))[1]).to.equal(
      'publisher_blocked',
    );
    await db()('infractions').insert({ account_id: dev.account.id, reason: 'Banimento permanente' });
    expect(refusal(await dev.site.delete(base))[1]).to.equal('banned');
  });

  it('refuses a missing URL and a game that cannot be opened', async () => {
    const { dev, base, releaseId } = await game('unplayable-dev');
    const missing = await dev.site.put(base, { release_id: releaseId });
    expect([missing.status, missing.body.error.reason, missing.body.error.field]).to.deep.equal([
      400,
      'url_invalid',
      'url',
    ]);
    await db()('arcade_apps').where({ app_id: dev.app.id }).update({ status: 'suspended', notice_kind: 'suspended' });
    expect(refusal(await dev.site.put(base, { url: 'http://localhost:5173/', release_id: releaseId }))[1]).to.equal(
      'not_playable',
    );
  });

  it('keeps 20 saves a day per app and 60 public lookups an hour per account, refused lookups included', async () => {
    const { dev, base, releaseId } = await game('limits-dev');
    await db()('rate_limits').insert({
      key: `attempt:arcade-override-lookup:${dev.account.id}`,
      points: 59,
      expire: Date.now() + 3_600_000,
    });
    // A name that resolves to a private address: the lookup happens (no DNS leaves the machine) and is refused.
    const { caFile } = await testCertificates();
    const leave = enterDoor('refused.jogatina.test', '10.9.9.9', caFile);
    try {
      const refusedLookup = await dev.site.put(base, { url: 'https://refused.jogatina.test/', release_id: releaseId });
      expect(refusedLookup.status).to.equal(400);
    } finally {
      leave();
    }
    const limited = await dev.site.put(base, { url: host.url('/'), release_id: releaseId });
    expect(limited.status).to.equal(429);
    // The owner's machine is never looked up, so it is not held back.
    expect((await dev.site.put(base, { url: 'http://localhost:5173/', release_id: releaseId })).status).to.equal(200);
    await db()('rate_limits')
      .insert({ key: `attempt:arcade-override-save:${dev.app.id}`, points: 20, expire: Date.now() + 3_600_000 })
      .onConflict('key')
      .merge();
    const res = await dev.site.put(base, { url: 'http://localhost:5174/', release_id: releaseId });
    expect(res.status).to.equal(429);
    expect(res.body.error.retry_after).to.be.a('number');
    expect((await dev.site.get(base)).body.data.override.changes_left).to.equal(0);
    expect((await dev.site.delete(base)).status).to.equal(200);
  });
  it('launches only what it reports ready: each blocked_reason is the launch’s refusal, and a publisher block', async () => {
    const { dev, base, releaseId } = await game('launch-blocked', false);
    const own = await startFakeHost();
    try {
      expect((await dev.site.put(base, { url: own.url('/dev/'), release_id: releaseId })).status).to.equal(200);
      /** What GET .../override says beside what the launch answers, as [blocked_reason, status, reason]. */
      const both = async () => {
        const { override } = (await dev.site.get(base)).body.data;
        const launch = await dev.site.post(`${base}/launch`);
        return [override.blocked_reason, launch.status, launch.body.error?.reason ?? null];
      };
      const at = (changes: Record<string, unknown>) =>
        db()('arcade_overrides').where({ app_id: dev.app.id }).update(changes);
      expect(await both()).to.deep.equal(['listing_not_found', 404, 'listing_not_found']);
      await dev.site.put(`/api/v1/account/apps/${dev.app.id}/arcade/listing`, listingBody());
      expect(await both()).to.deep.equal([null, 200, null]);

      await at({ expires_at: new Date(Date.now() - 1000) });
      expect(await both()).to.deep.equal(['override_expired', 409, 'override_expired']);
      await at({ expires_at: new Date(Date.now() + 3_600_000) });

      await db()('arcade_apps').where({ app_id: dev.app.id }).update({ notice_kind: 'flagged', notice_at: new Date() });
      expect(await both()).to.deep.equal(['not_playable', 403, 'not_playable']);
      await db()('arcade_apps').where({ app_id: dev.app.id }).update({ notice_kind: null, notice_at: null });

      await db()('arcade_releases').where({ id: releaseId }).update({ status: 'rejected' });
      expect(await both()).to.deep.equal(['release_not_found', 404, 'release_not_found']);
      await db()('arcade_releases').where({ id: releaseId }).update({ status: 'draft' });

      // A URL the rules no longer take (here: the service's own host).
      const service = new URL(SITE_ORIGIN);
      await at({ url: `${service.origin}/`, origin: service.origin, host: service.host, loopback: true });
      expect(await both()).to.deep.equal(['url_denied', 400, 'url_denied']);
      expect((await dev.site.post(`${base}/launch`)).body.error).to.include({ field: 'url', detail: 'service_host' });
      await at({ url: own.url('/dev/'), origin: own.origin, host: own.name, loopback: false });
      expect(await both()).to.deep.equal([null, 200, null]);

      // Moderation blocked the account from publishing: the reading still says ready, the launch is refused.
      await db()('publisher_blocks').insert({ account_id: dev.account.id });
      expect(await both()).to.deep.equal([null, 403, 'publisher_blocked']);
      await db()('publisher_blocks').where({ account_id: dev.account.id }).delete();

      // Another game took the origin (claims are for good, so this comes last).
      const other = await game('launch-blocked-other');
      await db()('arcade_claims').insert({ kind: 'origin', value: own.origin, app_id: other.dev.app.id });
      expect(await both()).to.deep.equal(['origin_in_use', 409, 'origin_in_use']);
      // Every launch that opened was recorded; the refused ones left nothing.
      expect(await db()('arcade_instances').where({ app_id: dev.app.id })).to.have.length(2);
    } finally {
      await own.close();
    }
  });
});
