// A person's public standing (spec: /profiles/{username}/minerals, /verification, /profiles/levels):
// mineral balance and level, and who vouched for their badge. No ledger, no private detail.
import type { Knex } from 'knex';
import { isUuid } from '../platform/validation/uuid.js';
import { Verification } from './models.js';

export async function mineralsOf(knex: Knex, accountId: string) {
  const row = await knex('mineral_balances').where({ account_id: accountId }).first('balance', 'level');
  // An account that never earned any reads as the starting point.
  return { balance: Number(row?.balance ?? 0), level: Number(row?.level ?? 1) };
}

export async function verificationOf(knex: Knex, accountId: string) {
  const row = await Verification.query(knex)
    .alias('v')
    .leftJoinRelated('voucher', { alias: 'a' })
    .where('v.account_id', accountId)
    .select('a.username as voucher_name', 'v.verified_at')
    .first()
    .castTo<{ voucher_name: string | null; verified_at: Date } | undefined>();
  if (!row) return null;
  return { vouched_by: row.voucher_name ?? null, verified_at: new Date(row.verified_at).toISOString() };
}

/** Levels of the accounts among `ids` that exist and have a username, in the order asked. */
export async function levelsOf(knex: Knex, ids: string[]) {
  const wanted = ids.filter(isUuid);
  if (wanted.length === 0) return [];
  const rows: Array<{ id: string; username: string; level: number | null; verified: boolean }> = await knex(
    'accounts as a',
  )
    .leftJoin('mineral_balances as m', 'm.account_id', 'a.id')
    .whereIn('a.id', wanted)
    .whereNotNull('a.username')
    .select(
      'a.id',
      'a.username',
      'm.level',
      knex.raw('EXISTS (SELECT 1 FROM verifications v WHERE v.account_id = a.id) AS verified'),
    );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return wanted
    .map((id) => byId.get(id))
    .filter((row) => row !== undefined)
    .map((row) => ({ id: row.id, username: row.username, level: row.level ?? 1, verified: row.verified }));
}
