// A play session and a journey as the API shows them (DECISIONS: Journal, What the feed and the things
// carry). The loaders hand in everything (the game, the counts), so presenting never queries; the people
// routes present a journey with the same function, with the totals their reader may see.
import { gameCard, type CardGame } from '../content/game-refs.js';
import type { JourneyRow, JourneyTotals, SessionRow } from './rows.js';

const iso = (at: Date | null) => (at === null ? null : new Date(at).toISOString());

export function presentSession(row: SessionRow, game: CardGame | undefined) {
  return {
    id: row.id,
    game_id: row.game_id,
    // The catalog is re-imported from upstream and may have lost a game someone played.
    game: gameCard(game),
    started_at: iso(row.started_at)!,
    ended_at: iso(row.ended_at),
    minutes: row.minutes,
    live: row.ended_at === null,
    note: row.note,
    visibility: row.visibility,
    comments: row.comments,
    removed: row.removed_at !== null,
    // To the microsecond: the last one is the `before` of the next page.
    created_at: row.created_at,
    updated_at: iso(row.updated_at)!,
  };
}

/** `game`: the catalog row shaped like `/games` (null when the catalog lost the game). */
export function presentJourney(row: JourneyRow, game: unknown, totals: JourneyTotals) {
  return {
    id: row.id,
    game_id: row.game_id,
    game: game ?? null,
    title: row.title,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    visibility: row.visibility,
    sessions: totals.sessions,
    minutes: totals.minutes,
    likes: row.likes,
    comments: totals.comments,
    awards: row.awards ?? {},
    removed: row.removed_at !== null,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}
