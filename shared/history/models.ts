// A recorded view of a game or a person's profile (recording.ts writes them in batches; history.ts reads,
// clears and purges them).
import { BaseModel } from '../platform/db/base-model.js';

export class View extends BaseModel {
  static override tableName = 'view_history';

  declare id: number;
  declare account_id: string;
  /** One of the two: the game viewed, or the profile's account. */
  declare game_id: number | null;
  declare profile_id: string | null;
  declare viewed_at: Date;
}
