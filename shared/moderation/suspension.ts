// Whether an account is under an active Suspensão or a Banimento permanente now: such an account may read
// but not write (docs/api-notes.md, "Suspended accounts"). People search, public counts and the feeds
// leave such accounts out with the same rule (NOT_SUSPENDED), so the two cannot disagree.
import type { Knex } from 'knex';

/**
 * SQL that is true when the account in `column` is not suspended or banned now (an active Suspensão or a
 * Banimento permanente): searches and public counts leave such accounts out.
 */
export const NOT_SUSPENDED = (column: string) => `NOT EXISTS (
  SELECT 1 FROM infractions inf WHERE inf.account_id = ${column}
    AND inf.reason IN ('Suspensão', 'Banimento permanente') AND (inf.expires_at IS NULL OR inf.expires_at > now()))`;

export async function accountSuspended(knex: Knex, accountId: string): Promise<boolean> {
  const { rows } = await knex.raw<{ rows: Array<{ free: boolean }> }>(
    `SELECT ${NOT_SUSPENDED('CAST(? AS uuid)')} AS free`,
    [accountId],
  );
  return !rows[0].free;
}
