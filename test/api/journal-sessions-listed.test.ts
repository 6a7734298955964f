// The owner's play sessions (DECISIONS: Journal), listed and deleted: GET /journal/sessions walked by its
// cursor through sessions logged in the same instant, and DELETE taking the session's feed item and the
// comments on it.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import * as people from '../helpers/people.js';
import { feedItemsOf, fromNow, journalGames } from '../helpers/journal.js';
import { useTestApp } from '../helpers/test-app.js';

const PATH = '/api/v1/journal/sessions';
const MINUTE = 60_000;
const MICROS = 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"';
const items = (subjectId: string) => feedItemsOf('session', subjectId);

describe('the journal’s play sessions: listed by cursor and deleted', () => {
  useCleanDatabase();
  const app = useTestApp();
  let game: { id: number; name: string; slug: string };
  let other: { id: number; name: string; slug: string };
  let n = 0;
  /** A new signed-in person: each test owns its sessions (one live session is per account). */
  const person = () => people.namedPerson(app.client, `journal_${(n += 1)}`);

  before(async () => {
    ({ game, other } = await journalGames({ platform_ids: [6, 48] }));
  });

  describe('DELETE /journal/sessions/{id}', () => {
    it('deletes the session with its feed item and the comments on it', async () => {
      const { site, account } = await person();
      const reader = await person();
      const session = (await site.post(PATH, { game_id: game.id, started_at: fromNow(-90), ended_at: fromNow(-60) }))
        .body.data;
      const keep = (await site.post(PATH, { game_id: game.id, started_at: fromNow(-50), ended_at: fromNow(-40) })).body
        .data;
      for (const target of [session.id, keep.id]) {
        await people.comment(reader.account.id, account.id, { target_kind: 'DIARY', target_id: target, body: 'gg' });
      }
      await people.comment(reader.account.id, account.id, {
        target_kind: 'DIARY',
        target_id: session.id,
        body: 'removed one',
        removed_at: new Date(),
      });
      const listed = await site.get(PATH);
      expect(listed.body.data.map((s: { id: string; comments: number }) => [s.id, s.comments])).to.deep.equal([
        [keep.id, 1],
        [session.id, 1],
      ]);

      const res = await site.delete(`${PATH}/${session.id}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ data: { id: session.id, deleted: true } });
      expect(await db()('play_sessions').where({ id: session.id })).to.have.length(0);
      expect(await items(session.id)).to.have.length(0);
      expect(await db()('comments').where({ target_id: session.id })).to.have.length(0);
      expect(await items(keep.id)).to.have.length(1);
      expect(await db()('comments').where({ target_id: keep.id })).to.have.length(1);
      expect((await site.delete(`${PATH}/${session.id}`)).status).to.equal(404);
    });
  });

  describe('GET /journal/sessions', () => {
    let owner: Awaited<ReturnType<typeof person>>;
    /** Ids newest first by (created_at, id), as the list answers. */
    let expected: string[] = [];
    let byGame: Record<number, string[]> = {};

    before(async () => {
      owner = await person();
      const stranger = await person();
      const base = Date.parse('2026-11-01T10:00:00.000Z');
      // Steps share instants (3 at step 1, 4 at step 3), 250 microseconds past the millisecond: a cursor
      // kept in milliseconds, or one that split a group, would skip or repeat rows.
      const steps = [0, 1, 1, 1, 2, 3, 3, 3, 3, 4, 5];
      const rows = steps.map((step, index) => ({
        account_id: owner.account.id,
        game_id: index % 3 === 0 ? other.id : game.id,
        started_at: new Date(base - 3600_000),
        ended_at: new Date(base - 1800_000),
        minutes: 30,
        created_at: db().raw("?::timestamptz + interval '250 microseconds'", [new Date(base + step * MINUTE)]),
      }));
      await db()('play_sessions').insert(rows);
      const inserted: Array<{ id: string; game_id: number; created_at: string }> = await db()('play_sessions')
        .where({ account_id: owner.account.id })
        .select('id', 'game_id', db().raw(`to_char(created_at AT TIME ZONE 'UTC', ?) AS created_at`, [MICROS]));
      const newestFirst = [...inserted].sort((a, b) =>
        a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1,
      );
      expected = newestFirst.map((row) => row.id);
      byGame = {
        [game.id]: newestFirst.filter((row) => row.game_id === game.id).map((row) => row.id),
        [other.id]: newestFirst.filter((row) => row.game_id === other.id).map((row) => row.id),
      };
      await people.playSession(stranger.account.id, { game_id: game.id });
    });

    async function walk(query: string, limit: number) {
      const seen: string[] = [];
      let before: string | null = null;
      for (let pages = 0; pages < 30; pages += 1) {
        const cursor: string = before ? `&before=${encodeURIComponent(before)}` : '';
        const res = await owner.site.get(`${PATH}?limit=${limit}${query}${cursor}`);
        expect(res.status, res.text).to.equal(200);
        seen.push(...res.body.data.map((s: { id: string }) => s.id));
        before = res.body.next_before;
        expect(res.body.has_more).to.equal(before !== null);
        if (before) expect(before).to.equal(res.body.data.at(-1).created_at);
        if (!before) return seen;
      }
      throw new Error('the walk did not end');
    }

    for (const limit of [1, 2, 3, 5, 100]) {
      it(`walks every session once, newest first, ${limit} a page, through equal created_at`, async () => {
        expect(await walk('', limit)).to.deep.equal(expected);
      });
    }

    it('filters by game, by id or by slug; a slug the catalog does not know finds nothing', async () => {
      expect(await walk(`&game=${game.id}`, 2)).to.deep.equal(byGame[game.id]);
      expect(await walk('&game=celeste', 2)).to.deep.equal(byGame[other.id]);
      const unknown = await owner.site.get(`${PATH}?game=no-such-game`);
      expect(unknown.body).to.deep.equal({ data: [], has_more: false, next_before: null });
      const lost = await owner.site.get(`${PATH}?game=999999`);
      expect(lost.body.data).to.deep.equal([]);
    });

    it('answers 20 by default, only the caller’s own', async () => {
      const res = await owner.site.get(PATH);
      expect(res.body.data.map((s: { id: string }) => s.id)).to.deep.equal(expected);
      expect(res.body).to.include({ has_more: false, next_before: null });
      expect(res.body.data[0]).to.include({ minutes: 30, live: false });
    });

    for (const [query, field, reason] of [
      ['limit=0', 'limit', 'out_of_range'],
      ['limit=101', 'limit', 'out_of_range'],
      ['limit=ten', 'limit', 'wrong_type'],
      ['before=yesterday', 'before', 'bad_format'],
      ['game=Hollow%20Knight', 'game', 'bad_format'],
    ] as const) {
      it(`answers ${query} with 400 ${reason} ${field}`, async () => {
        const res = await owner.site.get(`${PATH}?${query}`);
        expect(res.status).to.equal(400);
        expect(res.body.error).to.include({ code: 'invalid_request', field, reason });
      });
    }
  });
});
