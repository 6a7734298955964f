// Models stay thin: table, relations and JSON columns. Columns are snake_case like the API's fields, so
// no name mapping happens between a row and its presenter.
import { Model } from 'objection';

export class BaseModel extends Model {
  /** Tables with an `updated_at` column set this so every Objection update stamps it. */
  static touchesUpdatedAt = false;

  override $beforeUpdate(): void {
    if ((this.constructor as typeof BaseModel).touchesUpdatedAt) {
      (this as unknown as { updated_at: Date }).updated_at = new Date();
    }
  }
}
