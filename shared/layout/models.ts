// A profile's layout row: the draft the owner edits with its version, and the published copy visitors
// see (layout-versions.ts). The documents are read as stored (stored-layout.ts upgrades older forms), so
// they are not JSON attributes here: writes send them as JSON text, cast to jsonb in the statement.
import { BaseModel } from '../platform/db/base-model.js';

export class ProfileLayout extends BaseModel {
  static override tableName = 'profile_layouts';
  static override idColumn = 'account_id';
  // Not stamped on every update: a save of the same draft keeps its version and its updated_at.

  declare account_id: string;
  declare draft: unknown;
  declare version: number;
  declare published: unknown;
  declare published_version: number | null;
  declare published_at: Date | null;
  declare created_at: Date;
  declare updated_at: Date;
}
