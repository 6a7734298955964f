// The public Arcade: the directory (newest approval first, q by name, a signed cursor, limit bounds) and the
// store page, showing only listed games without a notice, built from the approved revision only.
import { expect } from 'chai';
import { db } from '../../shared/db/knex.js';
import { createApp } from '../../shared/keys/apps.js';
import { listingBody, seededGame } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { buildAccount } from '../helpers/factories.js';
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
});
