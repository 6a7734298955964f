// The rules of a person's history that need no database (DECISIONS: History): what is recorded, by whom,
// how much is kept and for how long, and the kinds a query names.

/** `kind` of GET and DELETE /history, and the item `kind` each holds. */
export const HISTORY_KINDS = ['games', 'profiles'] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];
export const ITEM_KIND = { games: 'game', profiles: 'profile' } as const;
export type HistoryItemKind = (typeof ITEM_KIND)[HistoryKind];

/** The newest views shown per account; older ones are never read and the retention purge removes them. */
export const HISTORY_CAP = 500;
/** Views older than this are never shown and the retention purge removes them. */
export const HISTORY_DAYS = 90;

/** GET /history: `limit` 1 to 100, 20 when omitted (DECISIONS: Cursor reads). */
export const HISTORY_PAGE = { min: 1, max: 100, default: 20 };

/** What a read shows: a catalog game by id, or a person by account id. */
export type ViewedThing = { game: number } | { profile: string };

/** Who reads, as far as recording cares: the account, and whether a session (not a key) carries the read. */
export interface ViewReader {
  account: { id: string; record_history: boolean };
  session: unknown;
  key: unknown;
}

/**
 * Pure: whether this read goes into the reader's history. Only a session's, never a key's (an integration
 * reading is not the person looking) nor an anonymous one's; never when the person turned recording off;
 * and never their own profile, which is not somewhere they went.
 */
export function recordsView(reader: ViewReader | null | undefined, thing: ViewedThing): boolean {
  if (!reader?.session || reader.key) return false;
  if (reader.account.record_history === false) return false;
  return !('profile' in thing && thing.profile === reader.account.id);
}
