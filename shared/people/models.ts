// A person's verification badge: who vouched for it (staff; null once their account is gone) and when.
import type { RelationMappings } from 'objection';
import { Account } from '../accounts/account.js';
import { BaseModel, belongsToOne } from '../platform/db/base-model.js';

export class Verification extends BaseModel {
  static override tableName = 'verifications';
  static override idColumn = 'account_id';

  declare account_id: string;
  declare vouched_by: string | null;
  declare verified_at: Date;

  static override get relationMappings(): RelationMappings {
    return {
      voucher: belongsToOne(Account, 'verifications.vouched_by', 'accounts.id'),
    };
  }
}
