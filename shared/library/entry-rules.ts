// What a library entry is and which of its writes the feed hears of (DECISIONS: Library; Fields and
// defaults). Pure: the commands in entries.ts and library-import.ts apply these.
import { refuseFuture } from '../content/content-rules.js';
import { refuseForeignPlatform, type GameRef } from '../content/game-refs.js';
import type { LIBRARY_STATUSES } from '../people/library.js';

/** At most this many entries per account; creating one more is 409 `library_full`. */
export const LIBRARY_ENTRY_LIMIT = 20_000;

export type EntryStatus = (typeof LIBRARY_STATUSES)[number];

/** The fields a PUT, a PATCH or an import entry may send. */
export interface EntryFields {
  status: EntryStatus | null;
  playing: boolean;
  backlog: boolean;
  wishlist: boolean;
  liked: boolean;
  ignored: boolean;
  rating: number | null;
  platform_id: number | null;
  finished_at: string | null;
}

export const ENTRY_FIELD_NAMES = [
  'status',
  'playing',
  'backlog',
  'wishlist',
  'liked',
  'ignored',
  'rating',
  'platform_id',
  'finished_at',
] as const satisfies ReadonlyArray<keyof EntryFields>;

/** What an omitted field takes: null, or false for the flags. */
export const ENTRY_DEFAULTS: EntryFields = {
  status: null,
  playing: false,
  backlog: false,
  wishlist: false,
  liked: false,
  ignored: false,
  rating: null,
  platform_id: null,
  finished_at: null,
};

/** A PUT's whole entry: the fields sent, the rest at their defaults (a PUT replaces, it does not merge). */
export function wholeEntry(sent: Partial<EntryFields>): EntryFields {
  const whole = { ...ENTRY_DEFAULTS };
  for (const name of ENTRY_FIELD_NAMES) {
    if (sent[name] !== undefined) (whole as Record<string, unknown>)[name] = sent[name];
  }
  return whole;
}

/** Only the fields sent, in a fixed order (a PATCH changes these and nothing else). */
export function sentFields(sent: Partial<EntryFields>): Partial<EntryFields> {
  return Object.fromEntries(ENTRY_FIELD_NAMES.filter((n) => sent[n] !== undefined).map((n) => [n, sent[n]]));
}

/**
 * What only the data can refuse (400 `fields_invalid`): a platform that is not the game's, a finish in the
 * future. `prefix` names an import entry's place (`entries.4.`).
 */
export function refuseEntryData(game: GameRef, fields: Partial<EntryFields>, prefix = ''): void {
  refuseForeignPlatform(game, fields.platform_id, `${prefix}platform_id`);
  refuseFuture(`${prefix}finished_at`, fields.finished_at);
}

/** The status and rating an entry had before a write (null when it did not exist). */
export interface EntryBefore {
  status: string | null;
  rating: number | null;
}

/**
 * Whether a write makes (or moves) the entry's feed item: a creation, or a change of status or rating, and
 * never while the entry is ignored (its items are HIDDEN: an ignored game is the owner's own note).
 */
export function tellsTheFeed(
  before: EntryBefore | null,
  after: { status: string | null; rating: number | null; ignored: boolean },
) {
  if (after.ignored) return false;
  if (!before) return true;
  return before.status !== after.status || before.rating !== after.rating;
}
