// A list (ordered, ranked or a tier board) with its items in order, and the owner's folders of lists
// (DECISIONS: Lists). A list's items are written whole with the list (list-commands.ts).
import type { RelationMappings } from 'objection';
import type { ContentVisibility } from '../content/content-fields.js';
import type { LIST_MODES } from '../people/lists.js';
import { BaseModel, belongsToOne, hasMany } from '../platform/db/base-model.js';

export type ListMode = (typeof LIST_MODES)[number];

export class ListFolder extends BaseModel {
  static override tableName = 'list_folders';
  static override touchesUpdatedAt = true;

  declare id: string;
  declare public_id: string;
  declare account_id: string;
  declare name: string;
  declare created_at: Date;
  declare updated_at: Date;
}

export class ListItem extends BaseModel {
  static override tableName = 'list_items';
  static override idColumn = ['list_id', 'position'];

  declare list_id: string;
  /** From 1, in the order the owner sent. */
  declare position: number;
  declare game_id: number;
  /** The tier's label on a tier board; null elsewhere (and for a game not placed yet). */
  declare tier: string | null;
}

export class List extends BaseModel {
  static override tableName = 'lists';
  static override touchesUpdatedAt = true;
  static override jsonAttributes = ['awards'];

  declare id: string;
  declare public_id: string;
  declare account_id: string;
  declare folder_id: string | null;
  declare title: string;
  declare description: string;
  declare visibility: ContentVisibility;
  declare mode: ListMode;
  /** A tier list's labels in board order; null on other modes (and on tier lists written before labels). */
  declare tiers: string[] | null;
  declare likes: number;
  declare awards: Record<string, number>;
  /** How many items the list holds (written with them). */
  declare preview_count: number;
  declare removed_at: Date | null;
  declare created_at: Date;
  declare updated_at: Date;

  static override get relationMappings(): RelationMappings {
    return {
      items: hasMany(ListItem, 'lists.id', 'list_items.list_id'),
      folder: belongsToOne(ListFolder, 'lists.folder_id', 'list_folders.id'),
    };
  }
}
