// GET /index: the sitemap's list of what anyone may see, most recent first, at most 1000 of each kind.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey, buildAccount } from '../helpers/factories.js';
import * as people from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

/** 1001 rows of each kind for one person in four statements, g minutes and a half ago (no ties). */
async function manyItems(accountId: string): Promise<void> {
  const series = (select: string) =>
    db().raw(`${select} FROM generate_series(1, 1001) AS g`, { owner: accountId }) as unknown as Promise<unknown>;
  await series(`INSERT INTO reviews (account_id, game_id, body, updated_at)
    SELECT :owner, 900000 + g, 'many', now() - (g + 0.5) * interval '1 minute'`);
  await series(`INSERT INTO library_entries (account_id, game_id, updated_at)
    SELECT :owner, 900000 + g, now() - (g + 0.5) * interval '1 minute'`);
  await series(`INSERT INTO lists (account_id, public_id, title, updated_at)
    SELECT :owner, 'many-' || g, 'many', now() - (g + 0.5) * interval '1 minute'`);
  await series(`INSERT INTO screenshots (account_id, public_id, image_key, image_width, image_height, created_at)
    SELECT :owner, 'shot-' || g, 'screenshots/many.webp', 10, 10, now() - (g + 0.5) * interval '1 minute'`);
}

describe('GET /index', () => {
  useCleanDatabase();
  const app = useTestApp();
  const anonymous = () => new SiteClient(app.client);
  const shown: Record<string, Record<string, unknown>> = {};

  before(async () => {
    const open = await people.namedPerson(app.client, 'open_person');
    const closed = await people.namedPerson(app.client, 'closed_library', 'PRIVATE');
    const friends = await people.namedPerson(app.client, 'friends_library', 'FOLLOWERS');
    const banned = await people.namedPerson(app.client, 'banned_person');
    const { account: nameless } = await buildAccount();
    await db()('infractions').insert({ account_id: banned.account.id, reason: 'Banimento permanente' });

    const id = open.account.id;
    shown.review = await people.review(id, { game_id: 11, updated_at: minutesAgo(5) });
    shown.entry = await people.libraryEntry(id, { game_id: 12, updated_at: minutesAgo(6) });
    shown.list = await people.list(id, { updated_at: minutesAgo(7) });
    shown.screenshot = await people.screenshot(id, { created_at: minutesAgo(8) });
    // A private library hides its entries, not the person's public reviews.
    shown.closedReview = await people.review(closed.account.id, { game_id: 13, updated_at: minutesAgo(9) });
    for (const visibility of ['FOLLOWERS', 'PRIVATE'] as const) {
      await people.review(id, { visibility });
      await people.list(id, { visibility });
      await people.screenshot(id, { visibility });
    }
    await people.screenshot(id, { removed_at: new Date() });
    await people.libraryEntry(closed.account.id);
    await people.libraryEntry(friends.account.id);
    for (const owner of [banned.account.id, nameless.id]) {
      await people.review(owner);
      await people.libraryEntry(owner);
      await people.list(owner);
      await people.screenshot(owner);
    }
  });

  it('lists only public items of people anyone may see, newest first', async () => {
    const res = await anonymous().get('/api/v1/index');
    expect(res.status).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('public, max-age=300');
    const iso = (value: unknown) => (value as Date).toISOString();
    expect(res.body.data).to.deep.equal({
      reviews: [
        { id: shown.review.id, username: 'open_person', game_id: 11, updated_at: iso(shown.review.updated_at) },
        {
          id: shown.closedReview.id,
          username: 'closed_library',
          game_id: 13,
          updated_at: iso(shown.closedReview.updated_at),
        },
      ],
      entries: [{ username: 'open_person', game_id: 12, updated_at: iso(shown.entry.updated_at) }],
      lists: [{ id: shown.list.public_id, username: 'open_person', updated_at: iso(shown.list.updated_at) }],
      screenshots: [
        { id: shown.screenshot.public_id, username: 'open_person', created_at: iso(shown.screenshot.created_at) },
      ],
    });
  });

  it('answers every caller alike, and a key needs profile.read', async () => {
    const reader = await people.namedPerson(app.client, 'blocked_reader');
    const owner = await db()('accounts').where({ username: 'open_person' }).first('id');
    await people.block(owner.id, reader.account.id);
    const signedIn = await reader.site.get('/api/v1/index');
    expect(signedIn.body).to.deep.equal((await anonymous().get('/api/v1/index')).body);

    const { token: withScope } = await appWithKey(reader.account.id, ['profile.read']);
    const { token: without } = await appWithKey(reader.account.id, ['lists.read']);
    const headers = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
    expect((await app.client.get('/api/v1/index', headers(withScope))).status).to.equal(200);
    const refused = await app.client.get('/api/v1/index', headers(without));
    expect(refused.status).to.equal(403);
    expect(refused.body.error).to.include({ code: 'insufficient_scope', scope: 'profile.read' });
  });

  it('stops at the most recent 1000 of each kind', async () => {
    const many = await people.namedPerson(app.client, 'many_items');
    await manyItems(many.account.id);
    const { data } = (await anonymous().get('/api/v1/index')).body;
    for (const kind of ['reviews', 'entries', 'lists', 'screenshots']) {
      expect(data[kind], kind).to.have.length(1000);
    }
    // The earlier items (5 to 9 minutes old) are newer than most of the 1001: they stay in, the oldest go.
    const games = data.reviews.map((row: { game_id: number }) => row.game_id);
    expect(games.slice(0, 6)).to.deep.equal([900001, 900002, 900003, 900004, 11, 900005]);
    expect(games).to.include(13);
    expect(games.at(-1)).to.equal(900998);
    expect(data.lists.at(-1).id).to.equal('many-999');
    expect(data.screenshots.at(-1).id).to.equal('shot-999');
    const times = data.entries.map((row: { updated_at: string }) => row.updated_at);
    expect(times).to.deep.equal([...times].sort().reverse());
  });
});
