// The owner's play sessions (DECISIONS: Journal, Cursor reads): one by id, and the list newest first by
// (created_at, id), walked by `before`, the last item's created_at to the microsecond. A cursor of a time
// alone cannot tell apart rows that share one instant, so a page never ends inside such a group: it ends
// before the group (the next page starts with it), or, when the group alone fills the page, holds it whole.
import type { Knex } from 'knex';
import { notFound } from '../platform/errors.js';
import { isUuid } from '../platform/validation/uuid.js';
import type { SessionRow } from './rows.js';
import { commentCountSql } from '../content/comment-count.js';
import type { CardGame } from '../content/game-refs.js';
import { Game } from '../catalog/models.js';
import { presentSession } from './presenters.js';

/** The columns of a session's answer: created_at to the microsecond, and the comments on it. */
export function sessionColumns(knex: Knex) {
  return [
    'p.id',
    'p.account_id',
    'p.game_id',
    'p.started_at',
    'p.ended_at',
    'p.minutes',
    'p.note',
    'p.visibility',
    'p.removed_at',
    'p.updated_at',
    knex.raw(`to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at`),
    knex.raw(`${commentCountSql('DIARY', 'p.id')} AS comments`),
  ];
}

export const sessionNotFound = () => notFound('You have no session with this id.', 'session_not_found');

/** The owner's session, or 404 `session_not_found` (another account's, unknown, or not a UUID). */
export async function ownSession(knex: Knex, ownerId: string, id: string): Promise<SessionRow> {
  if (!isUuid(id)) throw sessionNotFound();
  const row: SessionRow | undefined = await knex('play_sessions as p')
    .where({ 'p.id': id, 'p.account_id': ownerId })
    .first(sessionColumns(knex));
  if (!row) throw sessionNotFound();
  return row;
}

/** What a card shows of the games among `ids` the catalog still has (slug, name, cover), by id. */
export async function gameNames(knex: Knex, ids: number[]) {
  const unique = [...new Set(ids)];
  const rows: Array<CardGame & { id: number }> = unique.length
    ? await Game.query(knex).whereIn('id', unique).select('id', 'slug', 'name', 'cover_image_id')
    : [];
  return new Map(rows.map((row) => [row.id, row]));
}

/** Sessions as their owner's routes answer them, with their games' names in one read. */
export async function sessionsAsShown(knex: Knex, rows: SessionRow[]) {
  const games = await gameNames(
    knex,
    rows.map((row) => row.game_id),
  );
  return rows.map((row) => presentSession(row, games.get(row.game_id)));
}

export interface SessionQuery {
  /** undefined: every game; null: a game the catalog does not know (nothing matches). */
  gameId?: number | null;
  before?: string;
  limit: number;
}

export async function listSessions(knex: Knex, ownerId: string, query: SessionQuery) {
  if (query.gameId === null) return { rows: [] as SessionRow[], has_more: false, next_before: null };
  const base = () => {
    const q = knex('play_sessions as p').where('p.account_id', ownerId);
    if (query.gameId !== undefined) q.where('p.game_id', query.gameId);
    return q;
  };
  const newestFirst = [
    { column: 'p.created_at', order: 'desc' as const },
    { column: 'p.id', order: 'desc' as const },
  ];
  const page = base().select(sessionColumns(knex)).orderBy(newestFirst);
  if (query.before) page.where('p.created_at', '<', knex.raw('?::timestamptz', [query.before]));
  // One more than asked tells whether another page follows, and whether the page would split a group.
  const rows: SessionRow[] = await page.limit(query.limit + 1);
  if (rows.length <= query.limit) return { rows, has_more: false, next_before: null };

  const last = rows[query.limit - 1].created_at;
  if (rows[query.limit].created_at !== last) {
    const kept = rows.slice(0, query.limit);
    return { rows: kept, has_more: true, next_before: last };
  }
  const before = rows.slice(0, query.limit).filter((row) => row.created_at !== last);
  if (before.length > 0) return { rows: before, has_more: true, next_before: before.at(-1)!.created_at };
  // The whole page is one instant: it holds every row of that instant, then goes on before it.
  const group: SessionRow[] = await base()
    .select(sessionColumns(knex))
    .where('p.created_at', knex.raw('?::timestamptz', [last]))
    .orderBy(newestFirst);
  const older = await base()
    .where('p.created_at', '<', knex.raw('?::timestamptz', [last]))
    .first('p.id');
  return { rows: group, has_more: older !== undefined, next_before: older ? last : null };
}

const MAX_GAME_ID = 2147483647;

/**
 * The game a list is filtered by: digits name a catalog id, anything else a slug (as GET /activity takes
 * it). A slug the catalog does not know matches nothing (null), as on the activity feed; an id is taken as
 * is, so the sessions of a game the catalog has since lost can still be found.
 */
export async function gameFilter(knex: Knex, game: string | undefined): Promise<number | null | undefined> {
  if (game === undefined) return undefined;
  if (/^[0-9]{1,10}$/.test(game)) {
    const id = Number(game);
    return id >= 1 && id <= MAX_GAME_ID ? id : null;
  }
  const row = await Game.query(knex).findOne({ slug: game }).select('id');
  return row?.id ?? null;
}
