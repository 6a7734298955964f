// A list and a folder as the list routes answer them (DECISIONS: Lists; What the feed and the things carry).
// As on GET /profiles/{u}/lists, only the owner learns which audience a list is shared with.
import { boardOf } from './list-rules.js';
import type { FolderRow, ListItemRow, ListRow } from './rows.js';

export function presentListItem(item: ListItemRow, index: number, game: unknown) {
  return { position: index + 1, game_id: item.game_id, tier: item.tier, game: game ?? null };
}

export function presentList(
  shown: { list: ListRow; items: ListItemRow[]; games: Map<number, unknown> },
  owner: boolean,
) {
  const { list, items, games } = shown;
  return {
    id: list.public_id,
    username: list.username,
    title: list.title,
    description: list.description,
    ...(owner ? { visibility: list.visibility } : {}),
    mode: list.mode,
    tiers: boardOf(list.mode, list.tiers),
    folder: list.folder,
    size: list.preview_count,
    items: items.map((item, index) => presentListItem(item, index, games.get(item.game_id))),
    likes: list.likes,
    comments: list.comments,
    awards: list.awards ?? {},
    removed: list.removed_at !== null,
    created_at: list.created_at.toISOString(),
    updated_at: list.updated_at.toISOString(),
  };
}

export function presentFolder(folder: FolderRow) {
  return {
    id: folder.public_id,
    name: folder.name,
    created_at: folder.created_at.toISOString(),
    updated_at: folder.updated_at.toISOString(),
  };
}

export type PresentedList = ReturnType<typeof presentList>;
