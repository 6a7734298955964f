// Whether an account is under an active Suspensão or a Banimento permanente now: such an account may read
// but not write (README: API notes, "Suspended accounts"). The rule itself is the one people search and
// public counts use (NOT_SUSPENDED), so the two cannot disagree.
import type { Knex } from 'knex';
import { NOT_SUSPENDED } from '../people/visibility.js';

export async function accountSuspended(knex: Knex, accountId: string): Promise<boolean> {
  const { rows } = await knex.raw<{ rows: Array<{ free: boolean }> }>(
    `SELECT ${NOT_SUSPENDED('CAST(? AS uuid)')} AS free`,
    [accountId],
  );
  return !rows[0].free;
}
