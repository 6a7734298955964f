// Journeys (runs) as a reader sees them (DECISIONS: Journal, What the feed and the things carry). A run
// holds its game's sessions of the same account whose start falls between its start and its finish (open
// ended while it has none); it shows how many of them the reader may see and their closed minutes, its
// likes, the comments on it and its awards. `SessionsSeen` is the reader's condition on those sessions,
// built by whoever knows the reader (the people routes with item-visibility's visibleItems('p', relation)),
// so this folder decides nothing about followers and reads the same for the owner and for others.
import type { Knex } from 'knex';
import { loadPresentedGames } from '../catalog/games.js';
import { notFound } from '../platform/errors.js';
import { pageObject, pageWindow, type PageSpec } from '../platform/paging/paging.js';
import { isUuid } from '../platform/validation/uuid.js';
import { presentJourney } from './presenters.js';
import { JOURNEY_PAGE, type JourneyRow, type JourneyTotals } from './rows.js';
import { commentCountSql } from '../content/comment-count.js';

/** SQL over the session alias `p` true for the sessions the reader may see; `author`: the reader wrote them. */
export interface SessionsSeen {
  sql: string;
  bindings: Knex.Value[];
  /** The author also counts their sessions moderation removed (they see those, marked removed). */
  author: boolean;
}

/** The author sees every session of theirs. */
export const AUTHOR_SEES: SessionsSeen = { sql: 'true', bindings: [], author: true };

export const JOURNEY_COLUMNS = [
  'j.id',
  'j.account_id',
  'j.game_id',
  'j.title',
  'j.started_at',
  'j.finished_at',
  'j.visibility',
  'j.likes',
  'j.awards',
  'j.removed_at',
  'j.created_at',
  'j.updated_at',
];

/** Each journey's totals as `seen` allows, by id, in one statement for a whole page. */
export async function loadJourneyTotals(
  knex: Knex,
  journeyIds: string[],
  seen: SessionsSeen,
): Promise<Map<string, JourneyTotals>> {
  if (journeyIds.length === 0) return new Map();
  // The sessions are found by the (account_id, game_id, started_at) index, per run.
  const { rows } = await knex.raw<{ rows: Array<JourneyTotals & { id: string }> }>(
    `SELECT j.id, s.sessions, s.minutes,
       ${commentCountSql('JOURNEY', 'j.id')} AS comments
     FROM journeys j
     CROSS JOIN LATERAL (
       SELECT count(*)::int AS sessions, coalesce(sum(p.minutes), 0)::int AS minutes
       FROM play_sessions p
       WHERE p.account_id = j.account_id AND p.game_id = j.game_id
         AND (j.started_at IS NULL OR p.started_at >= j.started_at)
         AND (j.finished_at IS NULL OR p.started_at <= j.finished_at)
         AND (${seen.sql})${seen.author ? '' : ' AND p.removed_at IS NULL'}) s
     WHERE j.id = ANY(?::uuid[])`,
    [...seen.bindings, journeyIds as unknown as Knex.Value],
  );
  return new Map(rows.map(({ id, ...totals }) => [id, totals]));
}

/** Journeys as the API shows them to a reader: their games and totals loaded in two batches. */
export async function journeysAsShown(knex: Knex, rows: JourneyRow[], seen: SessionsSeen) {
  const [games, totals] = await Promise.all([
    loadPresentedGames(
      knex,
      rows.map((row) => row.game_id),
    ).then((games) => new Map<number, unknown>(games.map((game) => [game.id, game]))),
    loadJourneyTotals(
      knex,
      rows.map((row) => row.id),
      seen,
    ),
  ]);
  const none: JourneyTotals = { sessions: 0, minutes: 0, comments: 0 };
  return rows.map((row) => presentJourney(row, games.get(row.game_id), totals.get(row.id) ?? none));
}

export const journeyNotFound = () => notFound('You have no journey with this id.', 'journey_not_found');

/** The owner's journey, or 404 `journey_not_found` (another account's, unknown, or not a UUID). */
export async function ownJourney(knex: Knex, ownerId: string, id: string): Promise<JourneyRow> {
  if (!isUuid(id)) throw journeyNotFound();
  const row: JourneyRow | undefined = await knex('journeys as j')
    .where({ 'j.id': id, 'j.account_id': ownerId })
    .first(JOURNEY_COLUMNS);
  if (!row) throw journeyNotFound();
  return row;
}

export interface JourneyQuery {
  page: number;
  limit: number;
}

/**
 * A numbered page of the journeys `base` selects (a query on `journeys as j`), newest first by (created_at,
 * id), shown with the totals `seen` allows.
 */
export async function pageOfJourneys(knex: Knex, base: Knex.QueryBuilder, query: JourneyQuery, seen: SessionsSeen) {
  const spec: PageSpec = { size: query.limit, maxPage: JOURNEY_PAGE.maxPage };
  const { limit, offset } = pageWindow(query.page, spec);
  const [rows, total] = await Promise.all([
    base
      .clone()
      .select(JOURNEY_COLUMNS)
      .orderBy([
        { column: 'j.created_at', order: 'desc' },
        { column: 'j.id', order: 'desc' },
      ])
      .limit(limit)
      .offset(offset) as Promise<JourneyRow[]>,
    base
      .clone()
      .first(knex.raw('count(*)::int AS total'))
      .then((row: { total: number }) => row.total),
  ]);
  return { data: await journeysAsShown(knex, rows, seen), page: pageObject(query.page, spec, total) };
}

/** The owner's journeys, newest first, removed ones included, by numbered pages. */
export function listJourneys(knex: Knex, ownerId: string, query: JourneyQuery) {
  return pageOfJourneys(knex, knex('journeys as j').where('j.account_id', ownerId), query, AUTHOR_SEES);
}
