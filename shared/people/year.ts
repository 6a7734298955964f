// A person's year (spec: GET /profiles/{username}/year/{year}): what they logged, wrote, kept and captured
// in one calendar year (UTC), each item by its own visibility, the library only for readers who see it.
// A library row belongs to the year when it was added in it (`added`) or played in it (`played`): finished
// in it, a session started in it, added in it in a played state, or still marked playing and last changed
// in it. Only a session the reader may see marks a row played: a private or removed one would tell the
// reader of a session they may not see.
import type { Knex } from 'knex';
import { visibleItems, type ReaderRelation } from './item-visibility.js';

export const FIRST_YEAR = 2000;
const PLAYED_STATES = ['PLAYING', 'COMPLETED', 'DROPPED', 'ON_HOLD'];

function inYear(column: string): string {
  return `${column} >= make_timestamptz(?, 1, 1, 0, 0, 0, 'UTC') AND ${column} < make_timestamptz(? + 1, 1, 1, 0, 0, 0, 'UTC')`;
}

export async function yearOf(
  knex: Knex,
  ownerId: string,
  year: number,
  relation: ReaderRelation,
  seesLibrary: boolean,
) {
  const items = (table: string, alias: string, column: string) => {
    const visible = visibleItems(alias, relation);
    return knex(`${table} as ${alias}`)
      .where(`${alias}.account_id`, ownerId)
      .whereRaw(visible.sql, visible.bindings)
      .whereRaw(inYear(`${alias}.${column}`), [year, year])
      .orderBy(`${alias}.${column}`);
  };
  const [sessions, reviews, lists, screenshots, journeys] = await Promise.all([
    items('play_sessions', 'p', 'started_at')
      .whereNotNull('p.ended_at')
      .select('p.id', 'p.game_id', 'p.started_at', 'p.minutes'),
    items('reviews', 'r', 'created_at').select('r.id', 'r.game_id', 'r.rating', 'r.created_at'),
    items('lists', 'l', 'created_at').select('l.public_id as id', 'l.title', 'l.mode', 'l.created_at'),
    items('screenshots', 's', 'created_at')
      .whereNull('s.removed_at')
      .select('s.public_id as id', 's.game_id', 's.created_at'),
    items('journeys', 'j', 'created_at').select('j.id', 'j.game_id', 'j.title', 'j.created_at'),
  ]);
  const library = seesLibrary ? await libraryOfYear(knex, ownerId, year, relation) : [];
  return {
    year,
    sessions,
    reviews,
    library,
    lists,
    screenshots,
    journeys,
    totals: {
      sessions: sessions.length,
      minutes: sessions.reduce((sum: number, s: { minutes: number }) => sum + s.minutes, 0),
      reviews: reviews.length,
      added: library.filter((row) => row.added).length,
      played: library.filter((row) => row.played).length,
      lists: lists.length,
      screenshots: screenshots.length,
      journeys: journeys.length,
    },
  };
}

async function libraryOfYear(knex: Knex, ownerId: string, year: number, relation: ReaderRelation) {
  // Who may see a session: the rule the year's own sessions list reads (visibleItems, removed ones out).
  const session = visibleItems('p', relation);
  const { rows } = await knex.raw<{
    rows: Array<{ game_id: number; status: string | null; playing: boolean; added: boolean; played: boolean }>;
  }>(
    `SELECT * FROM (
       SELECT e.game_id, e.status, e.playing,
         (${inYear('e.created_at')}) AS added,
         (coalesce((${inYear('e.finished_at')}), false)
           OR EXISTS (SELECT 1 FROM play_sessions p WHERE p.account_id = e.account_id AND p.game_id = e.game_id
                      AND ${inYear('p.started_at')} AND ${session.sql})
           OR ((${inYear('e.created_at')}) AND e.status = ANY(?))
           OR (e.playing AND ${inYear('e.updated_at')})) AS played
       FROM library_entries e WHERE e.account_id = ? AND NOT e.ignored) rows
     WHERE added OR played ORDER BY game_id`,
    [year, year, year, year, year, year, ...session.bindings, year, year, PLAYED_STATES, year, year, ownerId],
  );
  return rows;
}
