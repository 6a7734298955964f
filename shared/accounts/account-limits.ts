// "At most N per account" (apps, drafts, later layout images and Arcade apps). The account's row is locked
// for the rest of the transaction, so two requests cannot both take the last place.
import type { Knex } from 'knex';
import { conflict } from '../platform/errors.js';

export interface AccountLimit {
  table: string;
  limit: number;
  reason: string;
  /** What is counted, for the message: "apps", "drafts". */
  noun: string;
}

export async function claimAccountPlace(trx: Knex.Transaction, accountId: string, rule: AccountLimit): Promise<void> {
  await trx('accounts').where({ id: accountId }).forUpdate().first('id');
  const [{ count }] = await trx(rule.table).where({ account_id: accountId }).count<{ count: number }[]>({ count: '*' });
  if (count >= rule.limit) {
    throw conflict(rule.reason, { limit: rule.limit, count }, `An account holds at most ${rule.limit} ${rule.noun}.`);
  }
}
