// Models stay thin: table, relations and JSON columns. Columns are snake_case like the API's fields, so
// no name mapping happens between a row and its presenter.
import { Model, type Pojo } from 'objection';

export class BaseModel extends Model {
  /** Tables with an `updated_at` column set this so every Objection update stamps it. */
  static touchesUpdatedAt = false;

  /** Rows read as JSON (`to_jsonb`, one query for two tables) carry timestamps as text: make them Dates. */
  override $parseDatabaseJson(json: Pojo): Pojo {
    const parsed = super.$parseDatabaseJson(json);
    for (const [key, value] of Object.entries(parsed)) {
      if (key.endsWith('_at') && typeof value === 'string') parsed[key] = new Date(value);
    }
    return parsed;
  }

  override $beforeUpdate(): void {
    if ((this.constructor as typeof BaseModel).touchesUpdatedAt) {
      (this as unknown as { updated_at: Date }).updated_at = new Date();
    }
  }
}
