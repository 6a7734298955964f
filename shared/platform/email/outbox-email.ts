import { BaseModel } from '../db/base-model.js';

export class OutboxEmail extends BaseModel {
  static override tableName = 'email_outbox';

  declare id: string;
  declare to_address: string;
  declare subject: string;
  declare text_body: string;
  declare html_body: string | null;
  declare kind: string;
  declare created_at: Date;
  declare sent_at: Date | null;
  declare attempts: number;
  declare last_error: string | null;
}
