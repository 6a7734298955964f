// A review as every review route answers it (DECISIONS: Reviews; What the feed and the things carry).
import { gameCard } from '../content/game-refs.js';
import type { ReviewRow } from './rows.js';

export function presentReview(row: ReviewRow) {
  return {
    id: row.id,
    username: row.username,
    game_id: row.game_id,
    game:
      row.game_slug === null
        ? null
        : gameCard({ slug: row.game_slug, name: row.game_name!, cover_image_id: row.game_cover_image_id }),
    body: row.body,
    rating: row.rating,
    contains_spoilers: row.contains_spoilers,
    visibility: row.visibility,
    likes: row.likes,
    comments: row.comments,
    awards: row.awards ?? {},
    removed: row.removed_at !== null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export type PresentedReview = ReturnType<typeof presentReview>;
