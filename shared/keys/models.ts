// Apps and their API keys.
import { BaseModel } from '../platform/db/base-model.js';

export class App extends BaseModel {
  static override tableName = 'apps';
  static override touchesUpdatedAt = true;

  declare id: string;
  declare account_id: string;
  declare name: string;
  declare description: string;
  declare scopes: string[];
  declare created_at: Date;
  declare updated_at: Date;
}

export class ApiKey extends BaseModel {
  static override tableName = 'api_keys';

  declare id: string;
  declare app_id: string;
  declare account_id: string;
  declare name: string;
  declare token_hash: string;
  declare last4: string;
  declare created_at: Date;
  declare expires_at: Date | null;
  declare revoked_at: Date | null;
  declare last_used_at: Date | null;
}
