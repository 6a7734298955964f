// POST /library/import (DECISIONS: Library): 1 to 500 entries written with PUT's meaning (each replaces the
// entry of its game, which keeps its created_at), in one transaction and one statement: all or none. The
// data's refusals name the first bad entry's field (`entries.299.game_id`). No feed items: an import is a
// move from elsewhere, and would flood followers' feeds.
import type { Knex } from 'knex';
import { raw } from 'objection';
import { fieldsInvalid } from '../content/content-rules.js';
import { loadGameRefs } from '../content/game-refs.js';
import { libraryFull, lockLibrary } from './entries.js';
import { LibraryEntry } from './models.js';
import {
  ENTRY_FIELD_NAMES,
  LIBRARY_ENTRY_LIMIT,
  refuseEntryData,
  wholeEntry,
  type EntryFields,
} from './entry-rules.js';

export const IMPORT_ENTRIES = { min: 1, max: 500 };

export type ImportEntry = Partial<EntryFields> & { game_id: number };

/** Refuses the first entry, in the body's order, with an unknown or repeated game or bad data. */
async function refuseBadEntries(knex: Knex, entries: ImportEntry[]): Promise<void> {
  const byId = await loadGameRefs(
    knex,
    entries.map((entry) => entry.game_id),
  );
  const seen = new Set<number>();
  entries.forEach((entry, index) => {
    const field = `entries.${index}.game_id`;
    const game = byId.get(entry.game_id);
    if (!game) throw fieldsInvalid(field, 'The catalog has no game with this id.');
    if (seen.has(entry.game_id)) throw fieldsInvalid(field, 'This game is already in this import.');
    seen.add(entry.game_id);
    refuseEntryData(game, entry, `entries.${index}.`);
  });
}

export async function importEntries(
  knex: Knex,
  accountId: string,
  entries: ImportEntry[],
): Promise<{ created: number; updated: number }> {
  await refuseBadEntries(knex, entries);
  return knex.transaction(async (trx) => {
    await lockLibrary(trx, accountId);
    const { count, held } = await LibraryEntry.query(trx)
      .where({ account_id: accountId })
      .select(raw('count(*)::int AS count'))
      .select(
        raw('(count(*) FILTER (WHERE game_id = ANY(CAST(? AS integer[]))))::int AS held', [
          entries.map((entry) => entry.game_id),
        ]),
      )
      .first()
      .castTo<{ count: number; held: number }>();
    if (count + entries.length - held > LIBRARY_ENTRY_LIMIT) throw libraryFull(count);
    // One statement for every entry, SQL: what it returns tells the created rows from the updated ones.
    const written: Array<{ xmax: string }> = await trx('library_entries')
      .insert(
        entries.map((entry) => ({
          account_id: accountId,
          game_id: entry.game_id,
          ...wholeEntry(entry),
          updated_at: trx.fn.now(),
        })),
      )
      .onConflict(['account_id', 'game_id'])
      .merge([...ENTRY_FIELD_NAMES, 'updated_at'])
      // xmax is 0 on a row this statement inserted, and this transaction's id on one it updated.
      .returning('xmax');
    const created = written.filter((row) => String(row.xmax) === '0').length;
    return { created, updated: written.length - created };
  });
}
