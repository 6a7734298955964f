// Events for integrations: an app's subscription, the events its owner's changes make (written by the
// database's triggers, migration app_events), and each delivery attempt. The delivery's claim and settle
// stay SQL (event-delivery.ts, shared/delivery/engine.ts: the `events` benchmark's backlog).
import { BaseModel } from '../platform/db/base-model.js';
import type { EventType } from './event-types.js';

export class AppEventSubscription extends BaseModel {
  static override tableName = 'app_event_subscriptions';
  static override idColumn = 'app_id';
  static override touchesUpdatedAt = true;

  declare app_id: string;
  declare account_id: string;
  declare url: string;
  declare types: EventType[];
  declare state: 'active' | 'disabled';
  declare disabled_reason: 'gone' | 'failing' | null;
  declare disabled_at: Date | null;
  declare last_success_at: Date | null;
  declare failing_since: Date | null;
  declare created_at: Date;
  declare updated_at: Date;
}

export class AppEvent extends BaseModel {
  static override tableName = 'app_events';
  static override jsonAttributes = ['data'];

  declare id: string;
  declare app_id: string;
  declare account_id: string;
  declare type: EventType;
  declare seq: number;
  /** What the data is rendered from: a game id, a row's id or public id, an account id. */
  declare subject: string;
  declare data: unknown;
  /** The transaction that made it (txid). */
  declare made_in: number;
  declare status: 'pending' | 'delivered' | 'failed';
  declare queued: boolean;
  declare attempts: number;
  declare next_attempt_at: Date;
  declare leased_until: Date | null;
  declare redelivery: boolean;
  declare last_error: string | null;
  declare created_at: Date;
  declare delivered_at: Date | null;
  declare failed_at: Date | null;
}

export class AppEventAttempt extends BaseModel {
  static override tableName = 'app_event_attempts';

  declare id: number;
  declare event_id: string;
  declare attempted_at: Date;
  declare http_status: number | null;
  declare duration_ms: number;
  declare error: string | null;
  declare outcome: 'delivered' | 'retrying' | 'failed';
}
