// The minerals ledger: every move of minerals, never changed; its trigger keeps mineral_balances (the sum,
// with no model of its own) in the same statement.
import { BaseModel } from '../platform/db/base-model.js';
import type { LedgerReason } from './rows.js';

export class MineralLedgerEntry extends BaseModel {
  static override tableName = 'mineral_ledger';

  declare id: number;
  declare account_id: string;
  declare delta: number;
  declare reason: LedgerReason;
  declare subject_kind: string | null;
  declare subject_id: string | null;
  declare award: string | null;
  declare note: string | null;
  declare created_at: Date;
}
