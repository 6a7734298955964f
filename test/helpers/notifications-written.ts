// What the tests of notification writers read: a person's notifications straight from the table (the read
// routes are tested on their own), oldest first, in the members each writer decides.
import { db } from '../../shared/platform/db/knex.js';

export interface Told {
  kind: string;
  actor_id: string | null;
  subject: { kind: string; id: string } | null;
  data: Record<string, unknown>;
}

/** What `recipientId` was told, oldest first. */
export async function toldTo(recipientId: string): Promise<Told[]> {
  const rows = await db()('notifications')
    .where({ account_id: recipientId })
    .orderBy([{ column: 'created_at' }, { column: 'seq' }])
    .select('kind', 'actor_id', 'subject_kind', 'subject_id', 'data');
  return rows.map((row) => ({
    kind: row.kind,
    actor_id: row.actor_id,
    subject: row.subject_kind === null ? null : { kind: row.subject_kind, id: row.subject_id },
    data: row.data,
  }));
}
