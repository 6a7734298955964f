// An account's names (usernames.ts), its sign-in identities at other providers and its linked connections
// (connections.ts); the account itself is account.ts.
import { BaseModel } from '../platform/db/base-model.js';

export class Identity extends BaseModel {
  static override tableName = 'identities';

  declare id: string;
  declare account_id: string;
  declare provider: string;
  declare provider_account_id: string;
  declare display_name: string | null;
  declare created_at: Date;
}

export class Connection extends BaseModel {
  static override tableName = 'connections';

  declare id: string;
  declare account_id: string;
  declare service: string;
  declare external_id: string;
  declare display_name: string | null;
  declare created_at: Date;
}

/** A name in use: an account's current one, or an old one kept as an alias for 30 days. */
export class Username extends BaseModel {
  static override tableName = 'usernames';
  static override idColumn = 'name';

  declare name: string;
  declare account_id: string;
  declare kind: 'current' | 'alias';
  declare created_at: Date;
  /** An alias's end; null for a current name. */
  declare expires_at: Date | null;
}
