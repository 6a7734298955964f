// The public Arcade: the directory (newest approval first, q by name, a signed cursor, limit bounds) and the
// store page, showing only listed games without a notice, built from the approved revision only.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { createApp } from '../../shared/keys/apps.js';
import { arcadeDeveloper, currentTermsVersion, listingBody, seededGame } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { buildAccount } from '../helpers/factories.js';
import { staffMember } from '../helpers/moderation.js';
import { useTestApp } from '../helpers/test-app.js';

describe('Arcade: directory and store page', () => {
  useCleanDatabase();
  const app = useTestApp();
  let accountId: string;

  const game = async (slug: string, options: Parameters<typeof seededGame>[3] = {}) => {
    const made = await createApp(db(), accountId, { name: slug });
    await seededGame(accountId, made.id, slug, options);
    return made.id;
  };

  before(async () => {
    accountId = (await buildAccount()).account.id;
    const day = (n: number) => new Date(Date.UTC(2026, 10, n));
    await game('old-rocks', { listed: true, name: 'Old Rocks', approvedAt: day(1) });
    await game('mid-rocks', { listed: true, name: 'Mid Rocks', approvedAt: day(2) });
    await game('new-blocks', { listed: true, name: 'New Blocks', approvedAt: day(3) });
    await game('flagged-one', { listed: true, approvedAt: day(4), notice: 'flagged' });
    await game('suspended-one', { listed: true, approvedAt: day(5), notice: 'suspended' });
    await game('hidden-one', { listed: true, approvedAt: day(6), notice: 'hidden' });
    await game('draft-only');
  });

  it('lists listed games without a notice, newest approval first, paging with a cursor', async () => {
    const first = await app.client.get('/api/v1/arcade/apps?limit=2');
    expect(first.status).to.equal(200);
    expect(first.body.data.map((item: { slug: string }) => item.slug)).to.deep.equal(['new-blocks', 'mid-rocks']);
    expect(first.body.data[0]).to.have.all.keys(
      'app_id',
      'slug',
      'name',
      'tagline',
      'icon_url',
      'tile_url',
      'tags',
      'age_rating',
      'controller_name',
      'platforms',
    );
    const second = await app.client.get(`/api/v1/arcade/apps?limit=2&cursor=${first.body.next}`);
    expect(second.body.data.map((item: { slug: string }) => item.slug)).to.deep.equal(['old-rocks']);
    expect(second.body.next).to.equal(null);
  });

  it('searches by name, accent- and case-insensitively', async () => {
    const res = await app.client.get('/api/v1/arcade/apps?q=ROCKS');
    expect(res.body.data.map((item: { slug: string }) => item.slug)).to.deep.equal(['mid-rocks', 'old-rocks']);
    expect((await app.client.get('/api/v1/arcade/apps?q=nothing-like-it')).body).to.deep.equal({
      data: [],
      next: null,
    });
  });

  it('refuses bad parameters and edited cursors', async () => {
    for (const query of ['limit=0', 'limit=61', 'limit=x', `q=${'a'.repeat(81)}`, 'cursor=abc.def']) {
      const res = await app.client.get(`/api/v1/arcade/apps?${query}`);
      expect(res.status, query).to.equal(400);
      expect(res.body.error.code).to.equal('invalid_request');
    }
  });

  it('answers the store page from the approved revision, and 404 app_not_found for anything else', async () => {
    const res = await app.client.get('/api/v1/arcade/apps/mid-rocks');
    expect(res.status).to.equal(200);
    const expected = listingBody({ name: 'Mid Rocks' });
    expect(res.body.data).to.deep.include({
      slug: 'mid-rocks',
      name: 'Mid Rocks',
      description: expected.description,
      host: 'mid-rocks.example.com',
      scopes: [],
      capabilities: [],
      controller_country: 'BR',
      screenshots: [],
      cover_url: null,
      reviewed_at: '2026-11-02T00:00:00.000Z',
    });
    // A draft waiting on top of the approved page changes nothing for players.
    const [{ app_id: appId }] = await db()('arcade_apps').where({ slug: 'mid-rocks' }).select('app_id');
    await db()('arcade_listings').insert({
      app_id: appId,
      number: 2,
      status: 'draft',
      fields: JSON.stringify(listingBody({ name: 'Renamed In Draft' })),
    });
    expect((await app.client.get('/api/v1/arcade/apps/mid-rocks')).body.data.name).to.equal('Mid Rocks');
    for (const slug of ['flagged-one', 'suspended-one', 'hidden-one', 'draft-only', 'never-was']) {
      const missing = await app.client.get(`/api/v1/arcade/apps/${slug}`);
      expect([missing.status, missing.body.error.reason], slug).to.deep.equal([404, 'app_not_found']);
    }
  });
  it('shows a stricter age rating as soon as it is submitted, and a milder one only once approved', async () => {
    const dev = await arcadeDeveloper(app.client);
    await seededGame(dev.account.id, dev.app.id, 'rated-rocks', { listed: true, name: 'Rated Rocks' });
    await dev.site.post('/api/v1/account/arcade/terms', { terms_version: await currentTermsVersion() });
    const moderator = await staffMember(app.client, 'mod_ratings');
    const base = `/api/v1/account/apps/${dev.app.id}/arcade`;
    /** The rating the store page and the directory item show. */
    const shown = async () => {
      const page = (await app.client.get('/api/v1/arcade/apps/rated-rocks')).body.data.age_rating;
      const items = (await app.client.get('/api/v1/arcade/apps?q=Rated%20Rocks')).body.data;
      expect(items).to.have.length(1);
      return [page, items[0].age_rating];
    };
    const submit = async (rating: string) => {
      expect(
        (await dev.site.put(`${base}/listing`, listingBody({ name: 'Rated Rocks', age_rating: rating }))).status,
      ).to.equal(200);
      const submitted = await dev.site.post(`${base}/listing/submit`);
      expect(submitted.status, submitted.text).to.equal(200);
      return submitted.body.data.listing.pending.number as number;
    };
    const decide = async (number: number, decision: 'approve' | 'reject') => {
      const { id } = await db()('arcade_listings').where({ app_id: dev.app.id, number }).first('id');
      const res = await moderator.site.post(`/api/v1/moderation/arcade/listings/${id}`, { decision });
      expect(res.status, res.text).to.equal(200);
    };
    expect(await shown()).to.deep.equal(['10', '10']);
    // A draft changes nothing; submitting a higher rating applies it at once.
    await dev.site.put(`${base}/listing`, listingBody({ name: 'Rated Rocks', age_rating: '16' }));
    expect(await shown()).to.deep.equal(['10', '10']);
    const higher = await submit('16');
    expect(await shown()).to.deep.equal(['16', '16']);
    // Refused: back to the approved rating.
    await decide(higher, 'reject');
    expect(await shown()).to.deep.equal(['10', '10']);
    // A lower one waits for the review, then applies.
    const lower = await submit('L');
    expect(await shown()).to.deep.equal(['10', '10']);
    await decide(lower, 'approve');
    expect(await shown()).to.deep.equal(['L', 'L']);
  });
});
