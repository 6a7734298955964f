// What a list is made of (DECISIONS: Lists): its row with what it shows beside it (its author's name, its
// folder's public id, the count of comments on it), its items, its folders, and what its owner sends.
import type { ContentVisibility } from '../content/content-fields.js';
import type { List, ListFolder, ListItem, ListMode } from './models.js';

export type { ListMode };

/** At most 1,000 lists and 100 folders per account (409 `lists_full`, `folders_full`). */
export const LISTS_PER_ACCOUNT = 1000;
export const FOLDERS_PER_ACCOUNT = 100;

/** The bounds of what a list holds. */
export const LIST_BOUNDS = {
  title: { min: 1, max: 100 },
  description: { max: 2000 },
  folderName: { min: 1, max: 60 },
  tierLabel: { min: 1, max: 20 },
  tiers: { min: 1, max: 10 },
  items: { max: 500 },
};

/** A tier list's board when its owner names none. */
export const DEFAULT_TIERS: readonly string[] = ['S', 'A', 'B', 'C', 'D'];

export interface ListRow extends Pick<
  List,
  | 'id'
  | 'public_id'
  | 'account_id'
  | 'folder_id'
  | 'title'
  | 'description'
  | 'visibility'
  | 'mode'
  | 'tiers'
  | 'likes'
  | 'awards'
  | 'preview_count'
  | 'removed_at'
  | 'created_at'
  | 'updated_at'
> {
  /** The author's current username (null while they have none). */
  username: string | null;
  /** The folder's public id, null when the list is in none. */
  folder: string | null;
  /** Comments on the list that moderation has not removed. */
  comments: number;
}

/** One place of a list, in order. */
export type ListItemRow = Pick<ListItem, 'position' | 'game_id' | 'tier'>;

/** A list as a reader finds it: the row, its items, and what the reader is to its author. */
export interface FoundList {
  list: ListRow;
  follows: boolean;
  blocked: boolean;
}

/** An item as the owner sends it: `tier` only in a tier list. */
export interface ListItemInput {
  game_id: number;
  tier?: string;
}

/** What `POST /lists` takes, defaults applied by the schema. */
export interface ListInput {
  title: string;
  description: string;
  visibility: ContentVisibility;
  mode: ListMode;
  /** A folder's public id, or null. */
  folder: string | null;
  tiers?: string[];
  items: ListItemInput[];
}

/** What `PATCH /lists/{id}` takes: only the fields sent change. */
export type ListChanges = Partial<Omit<ListInput, 'items'>>;

export type FolderRow = Pick<ListFolder, 'id' | 'public_id' | 'account_id' | 'name' | 'created_at' | 'updated_at'>;
