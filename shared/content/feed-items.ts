// Activity items written by people's writes (DECISIONS: What the feed and the things carry). An item is
// written beside its subject, in the same transaction; its visibility is derived by the database (migration
// activity_item_visibility), never passed. A deleted subject takes its items with it (a trigger), so
// nothing here deletes.
import type { Knex } from 'knex';
import { queryPrepared } from '../platform/db/prepared.js';
import { ActivityItem, type FeedKind } from './models.js';

export type { FeedKind };

export interface FeedSubject {
  accountId: string;
  kind: FeedKind;
  subjectId: string;
  gameId: number | null;
}

/** How long a library entry's item takes further changes instead of a new item being added. */
export const ENTRY_COALESCE_MS = 10 * 60_000;

export async function addFeedItem(trx: Knex.Transaction, subject: FeedSubject): Promise<void> {
  await ActivityItem.query(trx).insert({
    account_id: subject.accountId,
    kind: subject.kind,
    subject_id: subject.subjectId,
    game_id: subject.gameId,
  });
}

/**
 * A library entry changed its status or rating (or was created): its item of the last 10 minutes, if any,
 * moves to now (it shows the entry as it is now, so one change or five read the same); else a new item. SQL,
 * prepared: the `content` benchmark's PUT /library.
 */
const NOTE_ENTRY_CHANGE = `WITH moved AS (
    UPDATE activity_items SET created_at = now()
    WHERE account_id = $1 AND kind = 'entry' AND subject_id = $2
      AND created_at > now() - make_interval(secs => $4::int)
    RETURNING id)
  INSERT INTO activity_items (account_id, kind, subject_id, game_id)
  SELECT $1, 'entry', $2, $3 WHERE NOT EXISTS (SELECT 1 FROM moved)`;

export async function noteEntryChange(trx: Knex.Transaction, accountId: string, entryId: string, gameId: number) {
  // One round trip either way (the move, and the insert only when nothing moved), prepared.
  await queryPrepared(trx, 'jogatina_entry_item', NOTE_ENTRY_CHANGE, [
    accountId,
    entryId,
    gameId,
    ENTRY_COALESCE_MS / 1000,
  ]);
}

/** A subject's game changed: its items follow (the feed of a game reads items by their game). */
export async function moveFeedItems(trx: Knex.Transaction, kind: FeedKind, subjectId: string, gameId: number) {
  await ActivityItem.query(trx).where({ kind, subject_id: subjectId }).patch({ game_id: gameId });
}
