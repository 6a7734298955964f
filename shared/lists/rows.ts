// What a list is made of (DECISIONS: Lists): its row with what it shows beside it (its author's name, its
// folder's public id, the count of comments on it), its items, its folders, and what its owner sends.
import type { ContentVisibility } from '../content/content-fields.js';
import type { LIST_MODES } from '../people/lists.js';

export type ListMode = (typeof LIST_MODES)[number];

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

export interface ListRow {
  id: string;
  public_id: string;
  account_id: string;
  folder_id: string | null;
  title: string;
  description: string;
  visibility: ContentVisibility;
  mode: ListMode;
  /** A tier list's labels in board order; null on other modes (and on tier lists written before labels). */
  tiers: string[] | null;
  likes: number;
  awards: Record<string, number>;
  preview_count: number;
  removed_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** The author's current username (null while they have none). */
  username: string | null;
  /** The folder's public id, null when the list is in none. */
  folder: string | null;
  /** Comments on the list that moderation has not removed. */
  comments: number;
}

/** One place of a list, in order. */
export interface ListItemRow {
  position: number;
  game_id: number;
  tier: string | null;
}

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

export interface FolderRow {
  id: string;
  public_id: string;
  account_id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
}
