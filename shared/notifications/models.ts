// A notification (migration 20261126000100_notifications: its kinds, and why `seq` is no sequence) and the
// web processes listening for an account's new ones (stream-hub.ts). Notifications are written by
// notify.ts's statements, in the transaction of what caused them; the reads are load-notifications.ts's.
import { BaseModel } from '../platform/db/base-model.js';
import type { NotificationKind } from './rows.js';

export class Notification extends BaseModel {
  static override tableName = 'notifications';
  static override jsonAttributes = ['data'];

  declare id: string;
  declare account_id: string;
  declare kind: NotificationKind;
  /** Who did it; null when the service did. */
  declare actor_id: string | null;
  declare subject_kind: string | null;
  declare subject_id: string | null;
  declare data: Record<string, unknown>;
  /** Notifications of one key, while unread, collapse into one. */
  declare collapse_key: string | null;
  declare seq: number;
  declare created_at: Date;
  declare read_at: Date | null;
  declare collapse_started_at: Date | null;
}

export class NotificationListener extends BaseModel {
  static override tableName = 'notification_listeners';
  static override idColumn = ['account_id', 'listener'];

  declare account_id: string;
  /** The listening process (its id for the run). */
  declare listener: string;
  /** Refreshed while it still streams: a minute without is a dead listener. */
  declare seen_at: Date;
}
