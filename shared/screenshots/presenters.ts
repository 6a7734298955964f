// A capture as the capture routes answer it (DECISIONS: Screenshots; What the feed and the things carry):
// the gallery's capture as its owner sees it, with what a likeable thing shows.
import type { CaptureRow } from './rows.js';

export function presentCapture(row: CaptureRow, mediaUrl: (key: string) => string) {
  return {
    id: row.public_id,
    game_id: row.game_id,
    description: row.description,
    contains_spoilers: row.contains_spoilers,
    sensitive: row.sensitive,
    visibility: row.visibility,
    image_url: mediaUrl(row.image_key),
    image_width: row.image_width,
    image_height: row.image_height,
    thumbnail_url: row.thumbnail_key ? mediaUrl(row.thumbnail_key) : null,
    thumbnail_width: row.thumbnail_key ? row.thumbnail_width : null,
    thumbnail_height: row.thumbnail_key ? row.thumbnail_height : null,
    likes: row.likes,
    comments: row.comments,
    awards: row.awards ?? {},
    removed: row.removed_at !== null,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export type PresentedCapture = ReturnType<typeof presentCapture>;
