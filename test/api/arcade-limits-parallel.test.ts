// Arcade's daily and hourly caps under concurrency, over real HTTP (spec arcade.md: Limits): more requests
// than places are sent at once, with the count brought near its limit first where spending the whole
// limit would be slow, and exactly the places left succeed; the rest answer 429. A refusal gives back the
// use it took. Counts, never times.
import { expect } from 'chai';
import sharp from 'sharp';
import { db } from '../../shared/platform/db/knex.js';
import { createApp } from '../../shared/keys/apps.js';
import {
  arcadeDeveloper,
  currentTermsVersion,
  enabledGame,
  listingBody,
  releaseBody,
  releaseColumns,
  seededGame,
  serveGame,
} from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { signedInClient } from '../helpers/factories.js';
import { startFakeHost, type FakeHost } from '../helpers/fake-host.js';
import { testMedia, useImageWorker } from '../helpers/image-worker.js';
import { useJobWorker } from '../helpers/job-worker.js';
import { useTestApp } from '../helpers/test-app.js';

function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** Sends every request at once and answers their statuses. */
async function statusesOf(requests: Array<Promise<{ status: number }>>): Promise<number[]> {
  return (await Promise.all(requests)).map((res) => res.status);
}

/** Brings a limit's count for one subject to `points` uses, as earlier requests would have. */
async function used(name: string, subject: string, points: number): Promise<void> {
  await db()('rate_limits').insert({ key: `attempt:${name}:${subject}`, points, expire: Date.now() + 3_600_000 });
}

async function usesOf(name: string, subject: string): Promise<number> {
  const row = await db()('rate_limits')
    .where({ key: `attempt:${name}:${subject}` })
    .first('points');
  return (row?.points as number | undefined) ?? 0;
}

describe('Arcade: limits under concurrency', function () {
  this.timeout(60000);
  useCleanDatabase();
  useJobWorker(['url.check', 'email.send']);
  const media = testMedia();
  const app = useTestApp({ media });
  useImageWorker(() => media);
  let host: FakeHost;

  before(async () => {
    host = await startFakeHost();
  });
  after(() => host.close());

  it('enables 3 of 8 parallel requests with 3 of the day’s 5 enables left', async () => {
    const dev = await arcadeDeveloper(app.client);
    await used('arcade-enable', dev.account.id, 2);
    const terms = await currentTermsVersion();
    const apps = await Promise.all(
      Array.from({ length: 8 }, (_, i) => createApp(db(), dev.account.id, { name: `parallel ${i}` })),
    );
    const statuses = await statusesOf(
      apps.map((made, i) =>
        dev.site.post(`/api/v1/account/apps/${made.id}/arcade`, { slug: `parallel-${i}`, terms_version: terms }),
      ),
    );
    expect(tally(statuses)).to.deep.equal({ 201: 3, 429: 5 });
    expect(await db()('arcade_apps').where({ account_id: dev.account.id })).to.have.length(3);
    expect(await usesOf('arcade-enable', dev.account.id)).to.equal(5);
  });

  it('records 5 of 10 parallel terms acceptances with 5 of the day’s 10 left', async () => {
    const dev = await arcadeDeveloper(app.client);
    await used('arcade-terms', dev.account.id, 5);
    const terms = await currentTermsVersion();
    const statuses = await statusesOf(
      Array.from({ length: 10 }, () => dev.site.post('/api/v1/account/arcade/terms', { terms_version: terms })),
    );
    expect(tally(statuses)).to.deep.equal({ 200: 5, 429: 5 });
    expect(await db()('arcade_terms_acceptances').where({ account_id: dev.account.id })).to.have.length(5);
  });

  it('changes the nickname 5 times of 10 parallel requests with 5 of the day’s 10 left', async () => {
    const developer = await signedInClient(app.client);
    const made = await createApp(db(), developer.account.id, { name: 'nicknames' });
    await seededGame(developer.account.id, made.id, 'parallel-nicks', { listed: true });
    const player = await signedInClient(app.client);
    expect(
      (await player.site.post('/api/v1/account/arcade/grants', { app_id: made.id, nickname: 'Pilot' })).status,
    ).to.equal(201);
    await used('arcade-nickname', player.account.id, 5);
    const statuses = await statusesOf(
      Array.from({ length: 10 }, (_, i) =>
        player.site.patch(`/api/v1/account/arcade/grants/${made.id}`, { nickname: `Pilot ${i}` }),
      ),
    );
    expect(tally(statuses)).to.deep.equal({ 200: 5, 429: 5 });
    const changes = await db()('arcade_data_events').where({ app_id: made.id, type: 'nickname_changed' });
    expect(changes).to.have.length(5);
  });

  /** A game with a store page draft and a draft release, ready for a development URL. */
  async function overrideGame(slug: string) {
    const dev = await arcadeDeveloper(app.client);
    await enabledGame(dev, slug);
    await dev.site.put(`/api/v1/account/apps/${dev.app.id}/arcade/listing`, listingBody());
    const [release] = await db()('arcade_releases')
      .insert({ app_id: dev.app.id, number: 1, status: 'draft', ...releaseColumns() })
      .returning('id');
    return { dev, base: `/api/v1/account/apps/${dev.app.id}/arcade/override`, releaseId: release.id as string };
  }

  it('keeps 5 of 10 parallel development URL saves with 5 of the day’s 20 left', async () => {
    const { dev, base, releaseId } = await overrideGame('parallel-saves');
    await used('arcade-override-save', dev.app.id, 15);
    const statuses = await statusesOf(
      Array.from({ length: 10 }, (_, i) =>
        dev.site.put(base, { url: `http://localhost:${5200 + i}/`, release_id: releaseId }),
      ),
    );
    expect(tally(statuses)).to.deep.equal({ 200: 5, 429: 5 });
    expect((await dev.site.get(base)).body.data.override.changes_left).to.equal(0);
  });

  it('looks up 5 of 10 parallel public hosts with 5 of the hour’s 60 lookups left, and keeps only those saves', async () => {
    const { dev, base, releaseId } = await overrideGame('parallel-lookups');
    await used('arcade-override-lookup', dev.account.id, 55);
    const statuses = await statusesOf(
      Array.from({ length: 10 }, (_, i) =>
        dev.site.put(base, { url: host.url(`/build-${i}/`), release_id: releaseId }),
      ),
    );
    expect(tally(statuses)).to.deep.equal({ 200: 5, 429: 5 });
    expect(await usesOf('arcade-override-lookup', dev.account.id)).to.equal(60);
    // A save refused by the lookup limit gave its save back.
    expect((await dev.site.get(base)).body.data.override.changes_left).to.equal(15);
  });

  it('submits the store page once of 6 parallel requests, and refusals spend none', async () => {
    const dev = await arcadeDeveloper(app.client);
    await enabledGame(dev, 'parallel-listing');
    const base = `/api/v1/account/apps/${dev.app.id}/arcade`;
    expect((await dev.site.put(`${base}/listing`, listingBody())).status).to.equal(200);
    await used('arcade-listing-submit', dev.app.id, 4);
    const statuses = await statusesOf(Array.from({ length: 6 }, () => dev.site.post(`${base}/listing/submit`)));
    expect(tally(statuses)).to.deep.equal({ 200: 1, 429: 5 });
    expect(await usesOf('arcade-listing-submit', dev.app.id)).to.equal(5);

    // With every place free, one submission is made; the others are refused (locked) or turned away, and
    // only the one made is counted.
    const other = await arcadeDeveloper(app.client);
    await enabledGame(other, 'parallel-listing-free');
    const otherBase = `/api/v1/account/apps/${other.app.id}/arcade`;
    await other.site.put(`${otherBase}/listing`, listingBody());
    const free = await statusesOf(Array.from({ length: 6 }, () => other.site.post(`${otherBase}/listing/submit`)));
    expect(free.filter((status) => status === 200)).to.have.length(1);
    expect(free.every((status) => [200, 409, 429].includes(status))).to.equal(true);
    expect(await usesOf('arcade-listing-submit', other.app.id)).to.equal(1);
  });

  it('submits 3 of 6 parallel releases with 3 of the day’s 5 left, checking only those', async () => {
    const dev = await arcadeDeveloper(app.client);
    await enabledGame(dev, 'parallel-releases');
    serveGame(host, dev.app.id);
    // The origin is unclaimed: the submissions that pass claim it together, and none is refused for it.
    const base = `/api/v1/account/apps/${dev.app.id}/arcade`;
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const created = await dev.site.post(`${base}/releases`, releaseBody(host));
      expect(created.status, created.text).to.equal(201);
      ids.push(created.body.data.release.id);
    }
    await used('arcade-release-submit', dev.app.id, 2);
    const statuses = await statusesOf(ids.map((id) => dev.site.post(`${base}/releases/${id}/submit`)));
    expect(tally(statuses)).to.deep.equal({ 200: 3, 429: 3 });
    expect(await db()('arcade_releases').where({ app_id: dev.app.id, status: 'submitted' })).to.have.length(3);
    const checks = await db()('arcade_checks').whereIn('release_id', ids).where({ cause: 'submit' });
    expect(checks).to.have.length(3);
    expect(await db()('arcade_claims').where({ kind: 'origin', value: host.origin }).pluck('app_id')).to.deep.equal([
      dev.app.id,
    ]);
  });

  it('checks 3 of 8 parallel release checks with 3 of the day’s 20 left, running only those', async () => {
    const dev = await arcadeDeveloper(app.client);
    await enabledGame(dev, 'parallel-checks');
    serveGame(host, dev.app.id);
    const base = `/api/v1/account/apps/${dev.app.id}/arcade`;
    const created = await dev.site.post(`${base}/releases`, releaseBody(host));
    expect(created.status, created.text).to.equal(201);
    const id = created.body.data.release.id as string;
    await used('arcade-check', dev.app.id, 17);
    const statuses = await statusesOf(Array.from({ length: 8 }, () => dev.site.post(`${base}/releases/${id}/check`)));
    expect(tally(statuses)).to.deep.equal({ 200: 3, 429: 5 });
    expect(await db()('arcade_checks').where({ release_id: id, cause: 'check' })).to.have.length(3);
    expect(await usesOf('arcade-check', dev.app.id)).to.equal(20);
  });

  it('takes 3 of 8 parallel store-page images with 3 of the day’s 30 uploads left', async () => {
    const dev = await arcadeDeveloper(app.client);
    await enabledGame(dev, 'parallel-media');
    await used('arcade-media', dev.app.id, 27);
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#224466' } })
      .png()
      .toBuffer();
    const slots: Array<[string, string]> = [
      ['icon', '0'],
      ['tile', '0'],
      ['cover', '0'],
      ...Array.from({ length: 5 }, (_, i): [string, string] => ['screenshot', String(i)]),
    ];
    const statuses = await statusesOf(
      slots.map(([kind, position]) => {
        const form = new FormData();
        form.append('kind', kind);
        form.append('position', position);
        form.append('file', new Blob([png], { type: 'image/png' }), 'image.png');
        return dev.site.request('POST', `/api/v1/account/apps/${dev.app.id}/arcade/media`, { raw: form });
      }),
    );
    expect(tally(statuses)).to.deep.equal({ 201: 3, 429: 5 });
    expect(await db()('images').where({ app_id: dev.app.id })).to.have.length(3);
    expect(await usesOf('arcade-media', dev.app.id)).to.equal(30);
  });

  it('counts 5 of 10 parallel image uploads with 5 of the 10 minutes’ 30 left, refused ones included', async () => {
    const { site, account } = await signedInClient(app.client);
    await used('image-upload', account.id, 25);
    const statuses = await statusesOf(
      Array.from({ length: 10 }, () => {
        // No file: refused after it is counted, without a trip through the image pipeline.
        const empty = new FormData();
        empty.append('nothing', 'here');
        return site.request('POST', '/api/v1/profile/layout/media', { raw: empty });
      }),
    );
    expect(tally(statuses)).to.deep.equal({ 400: 5, 429: 5 });
    expect(await usesOf('image-upload', account.id)).to.equal(30);
  });
});
