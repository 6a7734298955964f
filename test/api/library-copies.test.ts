// GET /library/copies: the owner's own copies paged by a signed cursor. Walks each sort to its end
// (no row twice, none skipped, ties in created_at to the microsecond included), checks what a cursor may and may not be, and
// who may call.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import type { HttpVerbs } from '../helpers/http-client.js';
import * as people from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

interface Copy {
  id: string;
  game_id: number;
  created_at: string;
}

describe('GET /library/copies', () => {
  useCleanDatabase();
  const app = useTestApp();
  let owner: Awaited<ReturnType<typeof people.namedPerson>>;
  let other: Awaited<ReturnType<typeof people.namedPerson>>;
  let copies: Copy[] = [];

  before(async () => {
    owner = await people.namedPerson(app.client, 'copy_owner');
    other = await people.namedPerson(app.client, 'copy_other');
    const base = Date.parse('2026-11-01T10:00:00.000Z');
    // Three copies share one instant, and game 5 is held twice: the orders must break those ties.
    const rows = [0, 1, 1, 1, 2, 3, 4, 5, 6].map((step, index) => ({
      account_id: owner.account.id,
      game_id: [5, 3, 5, 9, 1, 7, 2, 8, 4][index],
      platform_id: index % 2 ? 6 : null,
      format: index % 3 ? 'digital' : 'physical',
      note: `copy ${index}`,
      // 250 microseconds past the millisecond: a cursor kept in milliseconds would skip the ties.
      created_at: db().raw("?::timestamptz + interval '250 microseconds'", [new Date(base + step * 60_000)]),
    }));
    const inserted = await db()('library_copies').insert(rows).returning(['id', 'game_id', 'created_at']);
    copies = inserted.map((row) => ({ ...row, created_at: new Date(row.created_at).toISOString() }));
    await db()('library_copies').insert({ account_id: other.account.id, game_id: 5 });
  });

  const byTimeThenId = (a: Copy, b: Copy) =>
    a.created_at === b.created_at ? (a.id < b.id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1;
  const EXPECTED: Record<string, () => string[]> = {
    newest: () =>
      [...copies]
        .sort(byTimeThenId)
        .reverse()
        .map((row) => row.id),
    oldest: () => [...copies].sort(byTimeThenId).map((row) => row.id),
    game: () =>
      [...copies]
        .sort((a, b) => (a.game_id === b.game_id ? (a.id < b.id ? -1 : 1) : a.game_id - b.game_id))
        .map((row) => row.id),
  };

  /** Follows next_cursor to the end, returning every id in the order received. */
  async function walk(client: HttpVerbs, sort: string, limit: number): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 20; pages += 1) {
      const query: string = `sort=${sort}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await client.get(`/api/v1/library/copies?${query}`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.page.size).to.equal(limit);
      seen.push(...res.body.data.map((row: Copy) => row.id));
      cursor = res.body.next_cursor;
      expect(res.body.page.has_more).to.equal(cursor !== null);
      if (!cursor) return seen;
    }
    throw new Error('the walk did not end');
  }

  for (const sort of ['newest', 'oldest', 'game']) {
    it(`walks sort=${sort} page by page without gaps or repeats`, async () => {
      expect(await walk(owner.site, sort, 2)).to.deep.equal(EXPECTED[sort]());
      expect(await walk(owner.site, sort, 3)).to.deep.equal(EXPECTED[sort]());
    });
  }

  it('answers newest first, 50 a page, with the copy fields, and only the caller’s own copies', async () => {
    const res = await owner.site.get('/api/v1/library/copies');
    expect(res.headers.get('cache-control')).to.equal('private, no-store');
    expect(res.body.page).to.deep.equal({ size: 50, has_more: false });
    expect(res.body.next_cursor).to.equal(null);
    expect(res.body.data.map((row: Copy) => row.id)).to.deep.equal(EXPECTED.newest());
    const first = copies.find((row) => row.id === res.body.data.at(-1).id)!;
    expect(res.body.data.at(-1)).to.deep.equal({
      id: first.id,
      game_id: 5,
      platform_id: null,
      format: 'physical',
      note: 'copy 0',
      created_at: first.created_at,
    });

    const theirs = await other.site.get('/api/v1/library/copies');
    expect(theirs.body.data).to.have.length(1);
    expect(EXPECTED.newest()).to.not.include(theirs.body.data[0].id);
  });

  it('starts over when the sort changes under a cursor (docs/api-notes.md: Cursors)', async () => {
    const first = await owner.site.get('/api/v1/library/copies?sort=newest&limit=2');
    const cursor = encodeURIComponent(first.body.next_cursor);
    const changed = await owner.site.get(`/api/v1/library/copies?sort=oldest&limit=2&cursor=${cursor}`);
    expect(changed.status).to.equal(200);
    expect(changed.body.data.map((row: Copy) => row.id)).to.deep.equal(EXPECTED.oldest().slice(0, 2));
  });

  it('refuses a cursor that was edited or never given out', async () => {
    const first = await owner.site.get('/api/v1/library/copies?sort=game&limit=2');
    const [payload, mac] = (first.body.next_cursor as string).split('.');
    const position = JSON.parse(Buffer.from(payload, 'base64url').toString());
    position[2][0] = 0;
    const edited = `${Buffer.from(JSON.stringify(position)).toString('base64url')}.${mac}`;
    for (const cursor of [edited, `${payload}.${mac.slice(1)}`, 'not-a-cursor', `${payload}.${mac}.x`]) {
      const res = await owner.site.get(`/api/v1/library/copies?sort=game&cursor=${encodeURIComponent(cursor)}`);
      expect(res.status, cursor).to.equal(400);
      expect(res.body.error).to.include({ code: 'invalid_request', field: 'cursor' });
    }
  });

  for (const [query, field] of [
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['sort=title', 'sort'],
    ['cursor=', 'cursor'],
  ] as const) {
    it(`answers ${query} with 400 naming ${field}`, async () => {
      const res = await owner.site.get(`/api/v1/library/copies?${query}`);
      expect(res.status).to.equal(400);
      expect(res.body.error).to.include({ code: 'invalid_request', field });
    });
  }

  it('takes limit 100', async () => {
    expect((await owner.site.get('/api/v1/library/copies?limit=100')).body.data).to.have.length(copies.length);
  });

  it('needs a caller, and from a key the library.read scope', async () => {
    const anonymous = await new SiteClient(app.client).get('/api/v1/library/copies');
    expect(anonymous.status).to.equal(401);
    expect(anonymous.body.error).to.include({ code: 'unauthorized' });

    const { token: withScope } = await appWithKey(owner.account.id, ['library.read']);
    const { token: without } = await appWithKey(owner.account.id, ['profile.read']);
    const headers = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
    const keyed = await app.client.get('/api/v1/library/copies?sort=oldest', headers(withScope));
    expect(keyed.status).to.equal(200);
    expect(keyed.headers.get('x-ratelimit-resource')).to.equal('read');
    expect(keyed.body.data.map((row: Copy) => row.id)).to.deep.equal(EXPECTED.oldest());
    const refused = await app.client.get('/api/v1/library/copies', headers(without));
    expect(refused.status).to.equal(403);
    expect(refused.body.error).to.include({ code: 'insufficient_scope', scope: 'library.read' });
  });
});
