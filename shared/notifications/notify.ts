// Writing a notification in the transaction of what caused it (DECISIONS: Notifications): nothing from an
// account the recipient blocked or that blocked them, and nothing to oneself. The test is in the insert's own
// statement, so a block committed first is always seen; the block's command removes the unread ones written
// before it (removeUnreadBetween).
import type { Knex } from 'knex';
import type { NotificationInput } from './rows.js';

/**
 * SQL: a notification from `actor` may reach `recipient` (two SQL uuid expressions): the service's always;
 * a person's unless it is to themselves or a block stands between the two, either way. The one-statement
 * writers (a like, a comment) test it in their own statements.
 */
export const deliverableSql = (recipient: string, actor: string) =>
  `(${actor} IS NULL OR (${actor} <> ${recipient} AND NOT EXISTS (
    SELECT 1 FROM blocks b WHERE (b.blocker_id = ${recipient} AND b.blocked_id = ${actor})
      OR (b.blocker_id = ${actor} AND b.blocked_id = ${recipient}))))`;

/** Writes one notification unless a block either way or the actor being the recipient rules it out. */
export async function notify(db: Knex | Knex.Transaction, input: NotificationInput): Promise<void> {
  // SQL kept: one INSERT ... SELECT that checks the block rule and writes in the same statement.
  await db.raw(
    `INSERT INTO notifications (account_id, kind, actor_id, subject_kind, subject_id, data)
     SELECT :recipient, :kind, CAST(:actor AS uuid), :subject_kind, :subject_id, CAST(:data AS jsonb)
     WHERE ${deliverableSql('CAST(:recipient AS uuid)', 'CAST(:actor AS uuid)')}`,
    {
      recipient: input.recipientId,
      kind: input.kind,
      actor: input.actorId,
      subject_kind: input.subject?.kind ?? null,
      subject_id: input.subject?.id ?? null,
      data: JSON.stringify(input.data ?? {}),
    },
  );
}

/** A block's command: the unread notifications either of the two caused the other go (DECISIONS). */
export async function removeUnreadBetween(trx: Knex.Transaction, a: string, b: string): Promise<void> {
  await trx.raw(
    `DELETE FROM notifications WHERE read_at IS NULL
       AND ((account_id = :a AND actor_id = :b) OR (account_id = :b AND actor_id = :a))`,
    { a, b },
  );
}
