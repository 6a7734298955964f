// GET /profiles/{username}/screenshots: what each reader sees of a gallery, the counts, filters and games.
import { expect } from 'chai';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import { block, catalogGame, follow, namedPerson, screenshot } from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

describe('GET /profiles/{username}/screenshots', () => {
  useCleanDatabase();
  const app = useTestApp();
  const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((c) => c.id);

  it('shows each reader what item visibility allows, never moderator-removed captures, with counts and games', async () => {
    const owner = await namedPerson(app.client, 'gallery_owner');
    const follower = await namedPerson(app.client, 'gallery_follower');
    const stranger = await namedPerson(app.client, 'gallery_stranger');
    await follow(follower.account.id, owner.account.id);
    const zelda = await catalogGame({ name: 'Zelda', slug: 'zelda-botw' });
    const mario = await catalogGame({ name: 'Mario', slug: 'super-mario' });
    const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 10, minutes));
    await screenshot(owner.account.id, {
      public_id: 'pub',
      game_id: zelda.id,
      created_at: at(1),
      description: 'A castle',
    });
    await screenshot(owner.account.id, {
      public_id: 'spoil',
      game_id: zelda.id,
      contains_spoilers: true,
      created_at: at(2),
    });
    await screenshot(owner.account.id, {
      public_id: 'fol',
      game_id: mario.id,
      visibility: 'FOLLOWERS',
      created_at: at(3),
    });
    await screenshot(owner.account.id, {
      public_id: 'priv',
      game_id: mario.id,
      visibility: 'PRIVATE',
      created_at: at(4),
    });
    await screenshot(owner.account.id, {
      public_id: 'gone',
      game_id: zelda.id,
      removed_at: new Date(),
      created_at: at(5),
    });
    await screenshot(owner.account.id, {
      public_id: 'thumb',
      game_id: 999999,
      created_at: at(6),
      thumbnail_key: 'screenshots/t.webp',
      thumbnail_width: 640,
      thumbnail_height: 360,
    });

    const seen: Array<[SiteClient, string[]]> = [
      [new SiteClient(app.client), ['thumb', 'spoil', 'pub']],
      [stranger.site, ['thumb', 'spoil', 'pub']],
      [follower.site, ['thumb', 'fol', 'spoil', 'pub']],
      [owner.site, ['thumb', 'priv', 'fol', 'spoil', 'pub']],
    ];
    for (const [reader, expected] of seen) {
      const res = await reader.get('/api/v1/profiles/gallery_owner/screenshots');
      expect(res.status).to.equal(200);
      expect(ids(res)).to.deep.equal(expected);
      expect(res.body.total).to.equal(expected.length);
      expect(res.body.spoiler_count).to.equal(1);
      expect(res.body.safe_count).to.equal(expected.length - 1);
    }
    const own = await owner.site.get('/api/v1/profiles/gallery_owner/screenshots');
    expect(own.body.data[0]).to.include({ visibility: 'PUBLIC', thumbnail_width: 640, thumbnail_height: 360 });
    expect(own.body.data[0].thumbnail_url).to.match(/\/media\/screenshots\/t\.webp$/);
    expect(own.body.data[4]).to.include({ thumbnail_url: null, thumbnail_width: null });
    expect(own.body.games).to.deep.equal([
      { extdb_id: mario.id, game_slug: 'super-mario', name: 'Mario', count: 2 },
      { extdb_id: zelda.id, game_slug: 'zelda-botw', name: 'Zelda', count: 2 },
      { extdb_id: 999999, game_slug: null, name: null, count: 1 },
    ]);
    const visitor = await stranger.site.get('/api/v1/profiles/gallery_owner/screenshots');
    expect(visitor.body.data[0]).to.not.have.property('visibility');
    expect(visitor.body.games.map((g: { count: number }) => g.count)).to.deep.equal([2, 1]);

    const filters: Array<[string, string[]]> = [
      ['spoilers=safe', ['thumb', 'pub']],
      ['spoilers=spoilers', ['spoil']],
      ['sort=old', ['pub', 'spoil', 'thumb']],
      ['game=zelda-botw', ['spoil', 'pub']],
      ['q=castle', ['pub']],
      ['q=zelda botw', ['spoil', 'pub']],
    ];
    for (const [query, expected] of filters) {
      const res = await stranger.site.get(`/api/v1/profiles/gallery_owner/screenshots?${query}`);
      expect(ids(res), query).to.deep.equal(expected);
    }
    const safe = await stranger.site.get('/api/v1/profiles/gallery_owner/screenshots?spoilers=safe');
    expect(safe.body).to.include({ total: 2, safe_count: 2, spoiler_count: 1 });
    const withCatalog = await stranger.site.get('/api/v1/profiles/gallery_owner/screenshots?games=1&game=zelda-botw');
    expect(withCatalog.body.catalog.map((g: { slug: string }) => g.slug)).to.deep.equal(['zelda-botw']);
  });

  it('pages 48 at a time, hides a gallery from both sides of a block, and checks every parameter', async () => {
    const owner = await namedPerson(app.client, 'big_gallery');
    const blocked = await namedPerson(app.client, 'gallery_blocked');
    for (let i = 0; i < 50; i += 1) await screenshot(owner.account.id);
    const first = await app.client.get('/api/v1/profiles/big_gallery/screenshots');
    expect(first.body.data).to.have.length(48);
    expect(first.body.page).to.deep.equal({ number: 1, size: 48, total_items: 50, total_pages: 2, has_more: true });
    await block(owner.account.id, blocked.account.id);
    expect((await blocked.site.get('/api/v1/profiles/big_gallery/screenshots')).status).to.equal(404);
    for (const [query, field] of [
      ['page=0', 'page'],
      ['spoilers=some', 'spoilers'],
      ['sort=best', 'sort'],
      ['games=2', 'games'],
      ['game=Not A Slug', 'game'],
      [`q=${'x'.repeat(81)}`, 'q'],
    ]) {
      const res = await app.client.get(`/api/v1/profiles/big_gallery/screenshots?${query}`);
      expect(res.status, query).to.equal(400);
      expect(res.body.error.field, query).to.equal(field);
    }
    const { token } = await appWithKey(owner.account.id, ['profile.read']);
    const refused = await app.client.get('/api/v1/profiles/big_gallery/screenshots', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(refused.body.error).to.include({ code: 'insufficient_scope', scope: 'screenshots.read' });
  });
});
