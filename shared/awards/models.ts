// An award given to someone's thing (award-commands.ts); what it cost moves through mineral_ledger
// (shared/wallet/models.ts).
import { BaseModel } from '../platform/db/base-model.js';

export class AwardGiven extends BaseModel {
  static override tableName = 'awards';

  declare id: string;
  declare giver_id: string;
  declare subject_kind: string;
  declare subject_id: string;
  declare award: string;
  declare cost: number;
  declare created_at: Date;
}
