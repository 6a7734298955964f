// The JSON of one's wallet and ledger (DECISIONS: Minerals and awards). Pure.
import { nextLevelAt } from './level-rules.js';
import { DAILY_CAP, type LedgerRow, type WalletRow } from './rows.js';

export function presentWallet(row: WalletRow) {
  return {
    balance: row.balance,
    level: row.level,
    lifetime: row.lifetime,
    earned_today: row.earned_today,
    daily_cap: DAILY_CAP,
    next_level_at: nextLevelAt(row.level),
  };
}

export function presentLedgerRow(row: LedgerRow) {
  return {
    delta: row.delta,
    reason: row.reason,
    subject: row.subject_kind === null ? null : { kind: row.subject_kind, id: row.subject_id! },
    award: row.award,
    note: row.note,
    created_at: row.created_at,
  };
}
