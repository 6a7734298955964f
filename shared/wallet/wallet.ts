// Reading one's own minerals (DECISIONS: Minerals and awards): the wallet (`GET /wallet`) and its ledger
// (`GET /wallet/ledger`), and an operator's grant. `/profiles/{u}/minerals` stays the public view
// (shared/people/standing.ts): balance and level, nothing of the ledger.
import type { Knex } from 'knex';
import { cursorPage, MICROSECONDS, type CursorPage } from '../content/cursor-page.js';
import { MineralLedgerEntry } from './models.js';
import { DAILY_CAP, type LedgerRow, type WalletRow } from './rows.js';

/**
 * The account's wallet; an account that never earned any reads as the starting point. `earned_today` is
 * what posting earned on this UTC day (what it asked for, up to the cap).
 */
export async function loadWallet(knex: Knex, accountId: string): Promise<WalletRow> {
  const { rows } = await knex.raw<{ rows: Array<Record<keyof WalletRow, string | number>> }>(
    `SELECT balance, level, lifetime,
       CASE WHEN posted_on = (now() AT TIME ZONE 'UTC')::date THEN least(posted_today, :cap) ELSE 0 END AS earned_today
     FROM mineral_balances WHERE account_id = :account`,
    { account: accountId, cap: DAILY_CAP },
  );
  const row = rows[0];
  if (!row) return { balance: 0, level: 1, lifetime: 0, earned_today: 0 };
  // bigint columns arrive as text.
  return {
    balance: Number(row.balance),
    level: Number(row.level),
    lifetime: Number(row.lifetime),
    earned_today: Number(row.earned_today),
  };
}

const LEDGER = (range: string, limit: boolean) => `
  SELECT delta, reason, subject_kind, subject_id, award, note,
    to_char(created_at AT TIME ZONE 'UTC', ${MICROSECONDS}) AS created_at
  FROM mineral_ledger
  WHERE account_id = :account AND ${range}
  ORDER BY created_at DESC, id DESC${limit ? '\n  LIMIT :limit' : ''}`;

/** The account's ledger, newest first, by cursor (DECISIONS: Cursor reads). */
export async function listLedger(
  knex: Knex,
  accountId: string,
  query: { before?: string; limit: number },
): Promise<CursorPage<LedgerRow>> {
  const run = async (sql: string, bindings: Record<string, Knex.Value>) =>
    (await knex.raw<{ rows: LedgerRow[] }>(sql, { account: accountId, ...bindings })).rows;
  return cursorPage<LedgerRow>(
    {
      before: (before, limit) =>
        before === undefined
          ? run(LEDGER('true', true), { limit })
          : run(LEDGER('created_at < CAST(:before AS timestamptz)', true), { before, limit }),
      at: (instant) => run(LEDGER('created_at = CAST(:at AS timestamptz)', false), { at: instant }),
    },
    query.before,
    query.limit,
  );
}

/**
 * An operator's grant (`npm run op -- minerals grant`): one ledger row, outside the daily cap; answers the
 * balance after it. The ledger's trigger moves the balance in the same statement.
 */
export async function grantMinerals(knex: Knex, accountId: string, amount: number, note: string): Promise<number> {
  return knex.transaction(async (trx) => {
    await MineralLedgerEntry.query(trx).insert({ account_id: accountId, delta: amount, reason: 'grant', note });
    const row: { balance: string } = await trx('mineral_balances').where({ account_id: accountId }).first('balance');
    return Number(row.balance);
  });
}
