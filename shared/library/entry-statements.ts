// The statements a PUT or PATCH of a library entry runs, each one round trip, prepared (one plan per shape
// and connection): they are on the path of every write of the library, whose target is p95 under 30 ms at
// 20 clients. Commands in entries.ts put them together inside their transaction.
import type { Knex } from 'knex';
import type { GameRef } from '../content/game-refs.js';
import { queryPrepared, statementName } from '../platform/db/prepared.js';
import { ENTRY_FIELD_NAMES, LIBRARY_ENTRY_LIMIT, type EntryBefore, type EntryFields } from './entry-rules.js';
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
  id: 'SELECT id, slug, name, platform_ids, false AS lost FROM games WHERE id = $2',
  slug: 'SELECT id, slug, name, platform_ids, false AS lost FROM games WHERE slug = $2',
  lostId: "SELECT $2::integer AS id, '' AS slug, '' AS name, '{}'::integer[] AS platform_ids, true AS lost",
};

export const libraryLockKey = (accountId: string) => `library-entries:${accountId}`;

type Returned = EntryRow & {
  ref_id: number | null;
  ref_slug: string;
  ref_name: string;
  ref_platforms: number[];
  ref_lost: boolean;
  old_status: string | null;
  old_rating: number | null;
  locked: unknown;
};

export interface Updated {
  /** Null: the catalog has no such game (a lost one is named by `lostId`). */
  game: FoundGame | null;
  /** The entry after the change, and the status and rating it had; absent when there is no entry. */
  changed?: { row: EntryRow; before: EntryBefore };
}

/**
 * Finds the game and sets `fields` on the owner's entry of it, in one statement. The entry is locked first,
 * so the status and rating it replaced are the latest committed ones. With `lockOnMiss`, a known game with
 * no entry takes the library lock in the same statement (a creation follows); the next statement's snapshot
 * is taken once the lock is held, so it sees every creator that went before.
 */
export async function updateEntry(
  trx: Knex.Transaction,
  accountId: string,
  name: GameName,
  fields: Partial<EntryFields>,
  lockOnMiss = false,
): Promise<Updated> {
  const kind = 'id' in name ? 'id' : 'slug' in name ? 'slug' : 'lostId';
  const values: unknown[] = [accountId, 'id' in name ? name.id : 'slug' in name ? name.slug : name.lostId];
  const sets = ENTRY_FIELD_NAMES.filter((field) => fields[field] !== undefined)
    .map((field) => `${field} = $${values.push(fields[field])}, `)
    .join('');
  const lock = lockOnMiss
    ? `CASE WHEN game.id IS NOT NULL AND changed.id IS NULL
         THEN pg_advisory_xact_lock(hashtextextended($${values.push(libraryLockKey(accountId))}, 0))::text END`
    : 'NULL';
  const text = `WITH game AS (${GAME_CTE[kind]}),
    old AS (SELECT e.id, e.status, e.rating FROM library_entries e, game
            WHERE e.account_id = $1 AND e.game_id = game.id FOR UPDATE OF e),
    changed AS (UPDATE library_entries e SET ${sets}updated_at = now() FROM old WHERE e.id = old.id
                RETURNING e.*, old.status AS old_status, old.rating AS old_rating)
    SELECT game.id AS ref_id, game.slug AS ref_slug, game.name AS ref_name, game.platform_ids AS ref_platforms,
           game.lost AS ref_lost, changed.*, ${lock} AS locked
    FROM (SELECT 1) AS one LEFT JOIN game ON true LEFT JOIN changed ON true`;
  const [first] = (await queryPrepared(
    trx,
    statementName('jogatina_entry_update', text),
    text,
    values,
  )) as unknown as Returned[];
  const { ref_id, ref_slug, ref_name, ref_platforms, ref_lost, old_status, old_rating, locked: _, ...row } = first;
  if (ref_id === null) return { game: null };
  const game = { id: ref_id, slug: ref_slug, name: ref_name, platform_ids: ref_platforms ?? [], lost: ref_lost };
  return row.id ? { game, changed: { row, before: { status: old_status, rating: old_rating } } } : { game };
}

const INSERT_ENTRY = `WITH room AS (SELECT count(*)::int AS count, coalesce(bool_or(game_id = $2), false) AS held
                FROM library_entries WHERE account_id = $1),
  made AS (INSERT INTO library_entries (account_id, game_id, ${ENTRY_FIELD_NAMES.join(', ')})
    SELECT $1, $2, $3::text, $4::boolean, $5::boolean, $6::boolean, $7::boolean, $8::boolean, $9::smallint,
           $10::integer, $11::timestamptz
    FROM room WHERE NOT room.held AND room.count < $12
    ON CONFLICT (account_id, game_id) DO NOTHING RETURNING *),
  item AS (INSERT INTO activity_items (account_id, kind, subject_id, game_id)
    SELECT account_id, 'entry', id, game_id FROM made WHERE NOT ignored)
  SELECT room.count, room.held, made.* FROM room LEFT JOIN made ON true`;

/**
 * Inserts the entry when the library has room and does not hold the game, counting in the same statement,
 * and its feed item unless it is ignored (a new entry has no item to coalesce with; the item's visibility is
 * derived by the trigger at the end of the statement, which sees the entry). The caller holds the library
 * lock. Answers the count, whether the game is held, and the row when it was made.
 */
export async function insertEntry(trx: Knex.Transaction, accountId: string, gameId: number, fields: EntryFields) {
  const values = [accountId, gameId, ...ENTRY_FIELD_NAMES.map((field) => fields[field]), LIBRARY_ENTRY_LIMIT];
  const [first] = (await queryPrepared(trx, 'jogatina_entry_insert', INSERT_ENTRY, values)) as unknown as Array<
    EntryRow & { count: number; held: boolean }
  >;
  const { count, held, ...row } = first;
  return { count, held, row: row.id ? (row as EntryRow) : undefined };
}
