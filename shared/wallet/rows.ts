// What minerals are made of (DECISIONS: Minerals and awards). The ledger and the balance row beside it are
// in migration 20261126000400_minerals_and_awards, which also holds what posting earns (a review 10, a list
// 5, a screenshot 2, a closed play session 2) and the daily cap in SQL (test/api/wallet.test.ts holds the
// cap here equal to it).

/** What posting earns in a UTC day at most; operator grants and award credits are outside it. */
export const DAILY_CAP = 50;

/**
 * Why a ledger row moved minerals: `posted` (a thing posted, or a session closed), `taken_back` (that thing
 * deleted), `award_given` (spent on an award), `award_received` (a fifth of an award to one's thing),
 * `grant` (an operator's), `opening` (a balance carried in from before the ledger, the demo's).
 */
export const LEDGER_REASONS = ['posted', 'taken_back', 'award_given', 'award_received', 'grant', 'opening'] as const;
export type LedgerReason = (typeof LEDGER_REASONS)[number];

/** What the ledger names a thing by: the kinds comments name things by. */
export const LEDGER_SUBJECT_KINDS = ['REVIEW', 'LIST', 'SCREENSHOT', 'DIARY', 'JOURNEY'] as const;

/** GET /wallet/ledger: `limit` 1 to 100, 20 when omitted (DECISIONS: Cursor reads). */
export const LEDGER_PAGE = { min: 1, max: 100, default: 20 };

/** An operator's grant: a whole number of minerals, and words saying why. */
export const GRANT_BOUNDS = { min: 1, max: 1_000_000, noteMax: 200 };

/** One's own wallet as GET /wallet reads it. */
export interface WalletRow {
  balance: number;
  level: number;
  lifetime: number;
  earned_today: number;
}

/** A ledger row as GET /wallet/ledger reads it. */
export interface LedgerRow {
  delta: number;
  reason: LedgerReason;
  subject_kind: string | null;
  subject_id: string | null;
  award: string | null;
  note: string | null;
  /** To the microsecond (the cursor). */
  created_at: string;
}
