// The shared feed read one kind at a time (shared/people/activity-branches.ts): a filter only some kinds
// pass, and `q`, which finds its games and things first and reads their items, or walks when they are many.
// Every page is checked against an oracle computed here from the rows themselves, over data where a word
// is rare (read by index), common (more reviews than the cap: walked), inside a word (no match: texts match
// by the starts of words) and in game names, with pages short
// and long, newest and oldest first.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { catalogGame, namedPerson } from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

interface Item {
  id: string;
  kind: string;
  created_at: string;
  game: string;
  text: string;
  spoilers: boolean | null;
  rating: number | null;
  visibility: string;
}

describe('activity: the shared feed read by kind', function () {
  this.timeout(60_000);
  useCleanDatabase();
  const app = useTestApp();
  let items: Item[] = [];

  before(async () => {
    const ana = await namedPerson(app.client, 'bk_ana');
    const bia = await namedPerson(app.client, 'bk_bia');
    const zelda = await catalogGame({ name: 'The Legend of Zelda', slug: 'bk-zelda' });
    const kart = await catalogGame({ name: 'Mario Kart', slug: 'bk-kart' });
    const plain = await catalogGame({ name: 'Tetris', slug: 'bk-tetris' });
    // 620 reviews say "common" (more than the cap for any page: walked); one in 50 says "rarity" (read by
    // index); some are private or spoilers. Entries and sessions of each game, the one of Zelda by name.
    await db().raw(
      `INSERT INTO reviews (account_id, game_id, body, rating, contains_spoilers, visibility, created_at)
       SELECT CASE WHEN i % 2 = 0 THEN ?::uuid ELSE ?::uuid END, (ARRAY[?, ?, ?]::int[])[1 + i % 3],
         'a common thought' || CASE WHEN i % 50 = 0 THEN ' of rarity' ELSE '' END, i % 101, i % 7 = 0,
         CASE WHEN i % 11 = 0 THEN 'PRIVATE' ELSE 'PUBLIC' END, now() - make_interval(secs => i * 10)
       FROM generate_series(1, 620) i`,
      [ana.account.id, bia.account.id, zelda.id, kart.id, plain.id],
    );
    await db().raw(`INSERT INTO activity_items (account_id, kind, subject_id, game_id, created_at)
      SELECT account_id, 'review', id, game_id, created_at FROM reviews`);
    await db().raw(
      `INSERT INTO library_entries (account_id, game_id, rating, updated_at)
       SELECT ?::uuid, g, (g * 7) % 101, now() FROM unnest(ARRAY[?, ?, ?]::int[]) g`,
      [ana.account.id, zelda.id, kart.id, plain.id],
    );
    await db().raw(`INSERT INTO activity_items (account_id, kind, subject_id, game_id, created_at)
      SELECT account_id, 'entry', id, game_id, now() - make_interval(secs => 5 + (game_id % 1000) * 3)
      FROM library_entries`);
    await db().raw(
      `INSERT INTO play_sessions (account_id, game_id, started_at, ended_at, minutes)
       SELECT ?::uuid, (ARRAY[?, ?, ?]::int[])[1 + i % 3], now() - make_interval(hours => i + 1),
         now() - make_interval(hours => i), 60 FROM generate_series(1, 40) i`,
      [bia.account.id, zelda.id, kart.id, plain.id],
    );
    await db().raw(`INSERT INTO activity_items (account_id, kind, subject_id, game_id, created_at)
      SELECT account_id, 'session', id, game_id, ended_at - make_interval(secs => 7) FROM play_sessions`);
    const { rows } = await db().raw(`
      SELECT x.id, x.kind, to_char(x.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at,
        lower(g.name) AS game, lower(coalesce(r.body, '')) AS text, r.contains_spoilers AS spoilers,
        coalesce(r.rating, e.rating) AS rating, x.visibility
      FROM activity_items x JOIN games g ON g.id = x.game_id
      LEFT JOIN reviews r ON x.kind = 'review' AND r.id = x.subject_id
      LEFT JOIN library_entries e ON x.kind = 'entry' AND e.id = x.subject_id`);
    items = rows;
  });

  /** Each word of `q` begins a word of `text` (the feed's rule for texts; game names hold `q` as it is). */
  const hasWords = (text: string, q: string) => {
    const words = text.split(/[^a-z0-9]+/);
    const asked = q.split(/[^a-z0-9]+/).filter(Boolean);
    return asked.length > 0 && asked.every((word) => words.some((own) => own.startsWith(word)));
  };

  /** What an anonymous reader's page holds, by the filters, computed from the rows. */
  function oracle(query: Record<string, string>): string[] {
    const kinds = query.kinds?.split(',');
    const q = query.q?.toLowerCase();
    const rating = query.rating === undefined ? undefined : Number(query.rating);
    const matching = items.filter(
      (item) =>
        item.visibility === 'PUBLIC' &&
        (!kinds || kinds.includes(item.kind)) &&
        (rating === undefined || (item.rating !== null && item.rating >= rating)) &&
        (query.spoilers !== 'spoilers' || item.spoilers === true) &&
        (query.spoilers !== 'safe' || item.spoilers !== true) &&
        (!q || item.game.includes(q) || hasWords(item.text, q)) &&
        (!query.before || (query.order === 'old' ? item.created_at > query.before : item.created_at < query.before)),
    );
    const old = query.order === 'old';
    matching.sort((a, b) => {
      const by = a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id);
      return old ? by : -by;
    });
    const offset = Number(query.offset ?? 0);
    return matching.slice(offset, offset + Number(query.limit ?? 30)).map((item) => item.id);
  }

  const QUERIES: Array<Record<string, string>> = [
    { spoilers: 'spoilers' },
    { spoilers: 'spoilers', limit: '180' },
    { spoilers: 'safe', kinds: 'review,entry', limit: '100' },
    { kinds: 'review,session' },
    { kinds: 'list,screenshot,journey' },
    { kinds: 'review,entry', rating: '95', limit: '50' },
    { rating: '40', order: 'old', limit: '10' },
    { q: 'rarity' },
    { q: 'rarity', limit: '180', order: 'old' },
    { q: 'common', limit: '10' },
    { q: 'common', limit: '16', order: 'old' },
    { q: 'common' },
    { q: 'common', limit: '180' },
    { q: 'zelda', limit: '100' },
    { q: 'zelda', kinds: 'entry,session' },
    { q: 'kart', spoilers: 'spoilers' },
    { q: 'nothing like this' },
    { q: 'of rar', kinds: 'review', limit: '5' },
    { q: 'ommon', limit: '30' },
    { q: 'thought common', limit: '40' },
    { q: 'legend of', limit: '180' },
    // `q` with the other filters, on both paths: read from its matches (rarity, zelda, kart) and walked.
    { q: 'rarity', rating: '50' },
    { q: 'zelda', kinds: 'review', offset: '20', limit: '10' },
    { q: 'common', kinds: 'review', offset: '100', limit: '30' },
    { q: 'kart', spoilers: 'safe', order: 'old', limit: '50' },
    { q: 'zelda', before: new Date(Date.now() - 1800_000).toISOString(), limit: '40' },
    { q: 'common', order: 'old', before: new Date(Date.now() - 3600_000).toISOString(), limit: '12' },
  ];

  for (const query of QUERIES) {
    it(`answers ${new URLSearchParams(query)} as the rows say`, async () => {
      const res = await new SiteClient(app.client).get(`/api/v1/activity?${new URLSearchParams(query)}`);
      expect(res.status, res.text).to.equal(200);
      const expected = oracle(query);
      expect(
        res.body.data.map((item: { id: string }) => item.id),
        JSON.stringify(query),
      ).to.deep.equal(expected);
      expect(res.body.has_more).to.equal(oracle({ ...query, limit: '1000' }).length > expected.length);
    });
  }

  it('has a word past the smallest cap and one under it, so both paths are read above', async () => {
    // Pages up to 16 cap the matches at 500: "common" (620 reviews) is walked there and read by its
    // matches for longer pages; "rarity" is always read by its matches.
    const count = async (word: string) =>
      Number(
        (
          await db()('reviews')
            .whereRaw("words @@ to_tsquery('simple', ?)", [`${word}:*`])
            .count({ n: '*' })
        )[0].n,
      );
    expect(await count('common')).to.equal(620);
    expect(await count('rarity')).to.equal(12);
  });
});
