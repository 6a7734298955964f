// An item of the activity feed: one of a person's things (or a change to their library), written beside it
// (feed-items.ts). Its visibility is the database's, derived from the thing (migration
// activity_item_visibility); the feed's walks read the items in SQL (people/activity.ts, the `people`
// benchmark).
import { BaseModel } from '../platform/db/base-model.js';
import type { ContentVisibility } from './content-fields.js';

export type FeedKind = 'entry' | 'session' | 'review' | 'list' | 'screenshot' | 'journey';

export class ActivityItem extends BaseModel {
  static override tableName = 'activity_items';

  declare id: string;
  declare account_id: string;
  declare kind: FeedKind;
  /** The thing's row id. */
  declare subject_id: string;
  declare game_id: number | null;
  declare created_at: Date;
  declare visibility: ContentVisibility;
}
