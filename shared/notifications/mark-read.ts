// Marking notifications read (DECISIONS: Notifications; a write). Only the reader's own unread ones that a
// read shows change, so `marked` is what the unread count drops by. Ids that name nothing of the reader's
// (another person's, one a block or the purge removed meanwhile, one already read) mark nothing and are no
// error: a client marks what it was shown, and one vanished id must not fail the rest; nothing about
// another person's notification is told either way. Marking read keeps `seq` (the migration's trigger), so
// it is not news to the stream.
import type { Knex } from 'knex';
import { SHOWN } from './load-notifications.js';

export type ReadMarks = { ids: string[] } | { all: true };

/** Marks the reader's unread notifications read: these ids, or all; answers how many changed. */
export async function markRead(knex: Knex, readerId: string, marks: ReadMarks): Promise<number> {
  const which = 'ids' in marks ? 'n.id = ANY(CAST(:ids AS uuid[]))' : 'true';
  // Uuids (checked by the route's schema) need no quoting in an array literal.
  const ids = 'ids' in marks ? `{${marks.ids.join(',')}}` : '{}';
  const { rowCount } = await knex.raw(
    `UPDATE notifications n SET read_at = now()
     WHERE n.account_id = :reader AND n.read_at IS NULL AND ${which} AND ${SHOWN}`,
    { reader: readerId, ids },
  );
  return rowCount ?? 0;
}
