// Models stay thin: table, relations and JSON columns. Columns are snake_case like the API's fields, so
// no name mapping happens between a row and its presenter.
import {
  Model,
  type ModelClassSpecifier,
  type ModelOptions,
  type Pojo,
  type QueryContext,
  type RelationMapping,
  type RelationType,
} from 'objection';

/**
 * A query's context (`Model.query(trx).context(UNSTAMPED)`) for bookkeeping that is no change of its rows,
 * a game's next check or the last check of a release: its updates leave `updated_at` as it was.
 */
export const UNSTAMPED = { unstamped: true };

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

  override $beforeUpdate(_options: ModelOptions, context: QueryContext): void {
    if ((this.constructor as typeof BaseModel).touchesUpdatedAt && context.unstamped !== true) {
      (this as unknown as { updated_at: Date }).updated_at = new Date();
    }
  }
}

/** A column, or the columns of a composite key, as `table.column`. */
type Columns = string | string[];

/** A relation joined on its columns (every relation the models have): `from` this table's, `to` the other's. */
function joined(
  relation: RelationType,
  modelClass: ModelClassSpecifier,
  from: Columns,
  to: Columns,
): RelationMapping<Model> {
  return { relation, modelClass, join: { from, to } };
}

/** This row names one row of `modelClass` (`from` holds its key). */
export const belongsToOne = (modelClass: ModelClassSpecifier, from: Columns, to: Columns) =>
  joined(Model.BelongsToOneRelation, modelClass, from, to);
/** Rows of `modelClass` name this one (`to` holds its key). */
export const hasMany = (modelClass: ModelClassSpecifier, from: Columns, to: Columns) =>
  joined(Model.HasManyRelation, modelClass, from, to);
/** One row of `modelClass` names this one. */
export const hasOne = (modelClass: ModelClassSpecifier, from: Columns, to: Columns) =>
  joined(Model.HasOneRelation, modelClass, from, to);
