// What the keys domain reads for its answers besides the models' rows (models.ts).

/** An app answer's members that are not the app's own columns, read for several apps at once. */
export interface AppStats {
  active_keys: number;
  last_used_at: Date | null;
  icon_url: string | null;
  /** The Arcade summary (spec general.md), added by Arcade's loader; null for an app without a game. */
  arcade?: object | null;
  /** The subscription to events for integrations, added by its loader; null for an app without one. */
  events?: object | null;
}
