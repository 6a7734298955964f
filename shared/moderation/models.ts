// What moderation writes: infractions on accounts, Arcade publisher blocks, and the record of every
// moderator action (moderator-actions.ts).
import { BaseModel } from '../platform/db/base-model.js';

export class Infraction extends BaseModel {
  static override tableName = 'infractions';

  declare id: string;
  declare account_id: string;
  declare reason: string;
  declare details: string | null;
  declare expires_at: Date | null;
  /** The moderator; null once their account is gone. */
  declare created_by: string | null;
  declare created_at: Date;
}

export class PublisherBlock extends BaseModel {
  static override tableName = 'publisher_blocks';
  static override idColumn = 'account_id';

  declare account_id: string;
  declare blocked_by: string | null;
  declare created_at: Date;
}

export class ModeratorAction extends BaseModel {
  static override tableName = 'moderator_actions';
  static override jsonAttributes = ['details'];

  declare id: string;
  /** Null: an operator acted from the command line (or the moderator's account is gone). */
  declare moderator_id: string | null;
  declare action: string;
  declare subject_kind: string;
  declare subject_id: string;
  declare details: Record<string, unknown>;
  declare created_at: Date;
}
