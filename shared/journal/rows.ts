// The journal's rows as the reads load them (tables play_sessions and journeys, migrations
// 20261122000900_people_content and 20261125000700_content_writes), and its sizes.
import type { Journey, PlaySession } from './models.js';

/** A play session with what its answer shows beside its columns. */
export interface SessionRow extends Pick<
  PlaySession,
  | 'id'
  | 'account_id'
  | 'game_id'
  | 'started_at'
  | 'ended_at'
  | 'minutes'
  | 'note'
  | 'visibility'
  | 'removed_at'
  | 'updated_at'
> {
  /** To the microsecond, as stored (`YYYY-MM-DDTHH:MI:SS.ffffffZ`): the list's cursor is made of it. */
  created_at: string;
  /** Comments on it (kind DIARY) that moderation has not removed. */
  comments: number;
}

export type JourneyRow = Pick<
  Journey,
  | 'id'
  | 'account_id'
  | 'game_id'
  | 'title'
  | 'started_at'
  | 'finished_at'
  | 'visibility'
  | 'likes'
  | 'awards'
  | 'removed_at'
  | 'created_at'
  | 'updated_at'
>;

/** What a journey holds, as one reader may see it. */
export interface JourneyTotals {
  /** The sessions it holds that the reader may see. */
  sessions: number;
  /** Their closed minutes summed. */
  minutes: number;
  /** Comments on it (kind JOURNEY) that moderation has not removed. */
  comments: number;
}

/** Journeys an account may hold (DECISIONS: Journal). */
export const JOURNEYS_PER_ACCOUNT = 1000;

/** GET /journal/sessions: `limit` 1 to 100, default 20 (DECISIONS: Cursor reads). */
export const SESSION_LIMIT = { min: 1, max: 100, default: 20 };

/** GET /journal/journeys: numbered pages, as GET /profiles/{username}/journeys pages them. */
export const JOURNEY_PAGE = { defaultLimit: 24, maxLimit: 48, maxPage: 200 };
