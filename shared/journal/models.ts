// The journal's rows (migrations 20261122000900_people_content and 20261125000700_content_writes): play
// sessions, one of them at most running (ended_at null), and journeys, a run through a game.
import type { PartialModelObject } from 'objection';
import type { ContentVisibility } from '../content/content-fields.js';
import { BaseModel } from '../platform/db/base-model.js';

export class PlaySession extends BaseModel {
  static override tableName = 'play_sessions';
  static override touchesUpdatedAt = true;

  declare id: string;
  declare account_id: string;
  declare game_id: number;
  declare started_at: Date;
  /** Null while it runs. */
  declare ended_at: Date | null;
  /** Its length once closed (written with ended_at). */
  declare minutes: number | null;
  declare note: string;
  declare visibility: ContentVisibility;
  declare created_at: Date;
  declare updated_at: Date;
  declare removed_at: Date | null;
}

export class Journey extends BaseModel {
  static override tableName = 'journeys';
  static override touchesUpdatedAt = true;
  static override jsonAttributes = ['awards'];

  declare id: string;
  declare account_id: string;
  declare game_id: number;
  declare title: string;
  declare visibility: ContentVisibility;
  /** Null only in rows older than the journal's routes (demo data): such a run holds from the start. */
  declare started_at: Date | null;
  declare finished_at: Date | null;
  declare created_at: Date;
  declare updated_at: Date;
  declare removed_at: Date | null;
  declare likes: number;
  declare awards: Record<string, number>;
}

/**
 * A client's fields with its times as the ISO text it sent, written as they are (PostgreSQL reads the
 * text, to the microsecond) where the models declare the Dates they read back.
 */
export function asSent<M extends BaseModel>(fields: object): PartialModelObject<M> {
  return fields as PartialModelObject<M>;
}
