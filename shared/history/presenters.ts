// A history item as GET /history answers it: its kind, when it was last viewed, and the thing as the
// catalog's and people's lists show it (a game card with its id; a person summary). The member of the other
// kind is null, so every item has one shape.
import { gameCard } from '../content/game-refs.js';
import { presentPersonSummary } from '../people/presenters.js';
import type { HistoryItemKind } from './history-rules.js';

export interface HistoryRow {
  kind: HistoryItemKind;
  /** When it was last viewed, to the microsecond: the cursor's instant. */
  created_at: string;
  game_id: number | null;
  slug: string | null;
  name: string | null;
  cover_image_id: string | null;
  username: string | null;
  display_name: string | null;
  avatar_key: string | null;
}

export function presentHistoryItem(row: HistoryRow, mediaUrl: (key: string) => string) {
  return {
    kind: row.kind,
    viewed_at: row.created_at,
    game:
      row.kind === 'game'
        ? { id: row.game_id!, ...gameCard({ slug: row.slug!, name: row.name!, cover_image_id: row.cover_image_id })! }
        : null,
    profile: row.kind === 'profile' ? presentPersonSummary(row, mediaUrl) : null,
  };
}

export type HistoryItem = ReturnType<typeof presentHistoryItem>;
