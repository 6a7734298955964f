// Arcade's players' side: a player's grant to a game (its nickname and scopes), the game's id for the
// player, each play (an instance, with the release or development URL it ran), and the data events sent
// to the game's server with their delivery attempts. The delivery's claim and settle stay SQL
// (delivery.ts, shared/delivery/engine.ts: the `data-events` benchmark).
import type { RelationMappings } from 'objection';
import { BaseModel, belongsToOne, hasOne } from '../platform/db/base-model.js';
import { ArcadeGame } from './models.js';

export class ArcadePlayer extends BaseModel {
  static override tableName = 'arcade_players';
  static override idColumn = ['account_id', 'app_id'];

  declare account_id: string;
  declare app_id: string;
  /** What the game knows the player by. */
  declare player_id: string;
  declare created_at: Date;
}

export class ArcadeGrant extends BaseModel {
  static override tableName = 'arcade_grants';
  static override idColumn = ['account_id', 'app_id'];

  declare account_id: string;
  declare app_id: string;
  declare nickname: string;
  declare scopes: string[];
  declare granted_at: Date;
  declare revoked_at: Date | null;

  static override get relationMappings(): RelationMappings {
    return {
      game: belongsToOne(ArcadeGame, 'arcade_grants.app_id', 'arcade_apps.app_id'),
      player: hasOne(
        ArcadePlayer,
        ['arcade_grants.account_id', 'arcade_grants.app_id'],
        ['arcade_players.account_id', 'arcade_players.app_id'],
      ),
    };
  }
}

export class ArcadeInstance extends BaseModel {
  static override tableName = 'arcade_instances';

  declare id: string;
  declare account_id: string;
  declare app_id: string;
  /** A play of the live release, or of the developer's development URL (mode `test`). */
  declare kind: 'live' | 'override';
  declare mode: 'live' | 'test';
  declare release_id: string | null;
  declare release_number: number | null;
  declare url: string;
  declare origin: string;
  declare check_id: string | null;
  declare created_at: Date;
}

export class DataEvent extends BaseModel {
  static override tableName = 'arcade_data_events';
  static override jsonAttributes = ['data'];

  declare id: string;
  declare app_id: string;
  declare player_id: string;
  declare type: 'nickname_changed' | 'grant_revoked' | 'grant_forgotten';
  declare data: Record<string, unknown>;
  declare status: 'pending' | 'delivered' | 'failed';
  declare attempts: number;
  declare next_attempt_at: Date;
  declare leased_until: Date | null;
  declare last_error: string | null;
  declare created_at: Date;
  declare delivered_at: Date | null;
  declare failed_at: Date | null;
  declare redelivery: boolean;
}

export class DataEventAttempt extends BaseModel {
  static override tableName = 'arcade_data_event_attempts';

  declare id: number;
  declare event_id: string;
  declare attempted_at: Date;
  declare http_status: number | null;
  declare duration_ms: number;
  declare error: string | null;
  declare outcome: string;
}
