// The statements a PUT or PATCH of a library entry runs, each one round trip, prepared (one plan per shape
// and connection): they are on the path of every write of the library, whose target is p95 under 30 ms at
// 20 clients. Commands in entries.ts put them together inside their transaction.
import type { Knex } from 'knex';
import type { GameRef } from '../content/game-refs.js';
import { queryPrepared, statementName } from '../platform/db/prepared.js';
import { ENTRY_FIELD_NAMES, type EntryBefore, type EntryFields } from './entry-rules.js';
import type { EntryRow } from './rows.js';

/**
 * How a path names a game: its catalog id or slug, or (`lostId`) the id of a game the catalog lost that an
 * entry of the owner still names.
 */
export type GameName = { id: number } | { slug: string } | { lostId: number };

/** A game as a write found it; `lost` when the catalog no longer has it. */
export interface FoundGame extends GameRef {
  lost: boolean;
}

const GAME_CTE = {
  id: 'SELECT id, slug, name, platform_ids, cover_image_id, false AS lost FROM games WHERE id = $2',
  slug: 'SELECT id, slug, name, platform_ids, cover_image_id, false AS lost FROM games WHERE slug = $2',
  lostId:
    "SELECT $2::integer AS id, '' AS slug, '' AS name, '{}'::integer[] AS platform_ids, NULL::text AS cover_image_id, true AS lost",
};

/** The game columns a write's statement returns beside its row (`ref_*`; all null when none was found). */
interface RefColumns {
  ref_id: number | null;
  ref_slug: string;
  ref_name: string;
  ref_platforms: number[];
  ref_cover: string | null;
}

/** Splits a write's returned row into the game it found (null: the catalog has none) and the rest. */
function splitFound<T extends RefColumns>(returned: T, lost: boolean) {
  const { ref_id, ref_slug, ref_name, ref_platforms, ref_cover, ...rest } = returned;
  const game: FoundGame | null =
    ref_id === null
      ? null
      : {
          id: ref_id,
          slug: ref_slug,
          name: ref_name,
          platform_ids: ref_platforms ?? [],
          cover_image_id: ref_cover,
          lost,
        };
  return { game, rest };
}

type Returned = EntryRow &
  RefColumns & {
    ref_lost: boolean;
    old_status: string | null;
    old_rating: number | null;
  };

export interface Updated {
  /** Null: the catalog has no such game (a lost one is named by `lostId`). */
  game: FoundGame | null;
  /** The entry after the change, and the status and rating it had; absent when there is no entry. */
  changed?: { row: EntryRow; before: EntryBefore };
}

/**
 * Finds the game and sets `fields` on the owner's entry of it, in one statement. The entry is locked first,
 * so the status and rating it replaced are the latest committed ones (PATCH, and PUT of a lost game).
 */
export async function updateEntry(
  trx: Knex.Transaction,
  accountId: string,
  name: GameName,
  fields: Partial<EntryFields>,
): Promise<Updated> {
  const kind = 'id' in name ? 'id' : 'slug' in name ? 'slug' : 'lostId';
  const values: unknown[] = [accountId, 'id' in name ? name.id : 'slug' in name ? name.slug : name.lostId];
  const sets = ENTRY_FIELD_NAMES.filter((field) => fields[field] !== undefined)
    .map((field) => `${field} = $${values.push(fields[field])}, `)
    .join('');
  const text = `WITH game AS (${GAME_CTE[kind]}),
    old AS (SELECT e.id, e.status, e.rating FROM library_entries e, game
            WHERE e.account_id = $1 AND e.game_id = game.id FOR UPDATE OF e),
    changed AS (UPDATE library_entries e SET ${sets}updated_at = now() FROM old WHERE e.id = old.id
                RETURNING e.*, old.status AS old_status, old.rating AS old_rating)
    SELECT game.id AS ref_id, game.slug AS ref_slug, game.name AS ref_name, game.platform_ids AS ref_platforms,
           game.cover_image_id AS ref_cover, game.lost AS ref_lost, changed.*
    FROM (SELECT 1) AS one LEFT JOIN game ON true LEFT JOIN changed ON true`;
  const [first] = (await queryPrepared(
    trx,
    statementName('jogatina_entry_update', text),
    text,
    values,
  )) as unknown as Returned[];
  const { game, rest } = splitFound(first, first.ref_lost);
  if (!game) return { game: null };
  const { ref_lost: _lost, old_status, old_rating, ...row } = rest;
  return row.id ? { game, changed: { row, before: { status: old_status, rating: old_rating } } } : { game };
}

/**
 * PUT of a catalog game's entry in one statement, outside any transaction: the game (by id or slug), the
 * platform test, the replaced status and rating, the upsert, and the feed item (a creation, or a change of
 * status or rating, never while ignored) with its 10-minute coalescing. The account's 20,000 limit is held
 * by `library_counts` (a creation past it fails the statement with `library_counts_limit`). `before` is the
 * entry as the statement began; a parallel PUT creating the same entry makes this one an update with no
 * `before`, and the creator's item already tells the feed.
 */
const PUT_ENTRY = (by: 'id' | 'slug') => `WITH game AS (
    SELECT id, slug, name, platform_ids, cover_image_id FROM games WHERE ${by} = $2),
  ok AS (SELECT game.id FROM game WHERE $10::integer IS NULL OR $10::integer = ANY(game.platform_ids)),
  old AS (SELECT e.status, e.rating FROM library_entries e, ok WHERE e.account_id = $1 AND e.game_id = ok.id),
  put AS (INSERT INTO library_entries AS e (account_id, game_id, ${ENTRY_FIELD_NAMES.join(', ')})
    SELECT $1, ok.id, $3::text, $4::boolean, $5::boolean, $6::boolean, $7::boolean, $8::boolean, $9::smallint,
           $10::integer, $11::timestamptz FROM ok
    ON CONFLICT (account_id, game_id) DO UPDATE SET ${ENTRY_FIELD_NAMES.map((f) => `${f} = excluded.${f}`).join(', ')},
      updated_at = now()
    RETURNING e.*, (e.xmax = 0) AS created),
  tell AS (SELECT put.id, put.game_id FROM put LEFT JOIN old ON true
    WHERE NOT put.ignored AND (put.created
      OR EXISTS (SELECT 1 FROM old) AND (old.status IS DISTINCT FROM put.status OR old.rating IS DISTINCT FROM put.rating))),
  moved AS (UPDATE activity_items x SET created_at = now() FROM tell
    WHERE x.account_id = $1 AND x.kind = 'entry' AND x.subject_id = tell.id
      AND x.created_at > now() - make_interval(secs => $12::int) RETURNING x.id),
  added AS (INSERT INTO activity_items (account_id, kind, subject_id, game_id, visibility)
    SELECT $1, 'entry', tell.id, tell.game_id,
      coalesce((SELECT pr.library_visibility FROM profiles pr WHERE pr.account_id = $1), 'PUBLIC')
    FROM tell WHERE NOT EXISTS (SELECT 1 FROM moved))
  SELECT game.id AS ref_id, game.slug AS ref_slug, game.name AS ref_name, game.platform_ids AS ref_platforms,
    game.cover_image_id AS ref_cover, put.*
  FROM (SELECT 1) AS one LEFT JOIN game ON true LEFT JOIN put ON true`;
const PUT_BY = { id: PUT_ENTRY('id'), slug: PUT_ENTRY('slug') };

export interface PutOutcome {
  /** Null: the catalog has no such game (it may be one it lost: the caller decides). */
  game: FoundGame | null;
  /** Absent when the game was found and nothing was written (its platform was not the game's). */
  row?: EntryRow;
  created?: boolean;
}

export async function putCatalogEntry(
  knex: Knex,
  accountId: string,
  name: { id: number } | { slug: string },
  fields: EntryFields,
  coalesceSeconds: number,
): Promise<PutOutcome> {
  const by = 'id' in name ? 'id' : 'slug';
  const values = [
    accountId,
    'id' in name ? name.id : name.slug,
    ...ENTRY_FIELD_NAMES.map((field) => fields[field]),
    coalesceSeconds,
  ];
  const [first] = (await queryPrepared(knex, `jogatina_entry_put_${by}`, PUT_BY[by], values)) as unknown as Array<
    EntryRow & RefColumns & { created: boolean }
  >;
  const { game, rest } = splitFound(first, false);
  if (!game) return { game: null };
  const { created, ...row } = rest;
  return row.id ? { game, row: row as EntryRow, created } : { game };
}
