// The UTC calendar days a play session covers, the days every people route counts in (game activity, stats,
// year). A session is on every day it covers: one from 23:00 to 01:00 counts two. Its end is exclusive, so a
// session that ends at 00:00 sharp played no part of the next day: its last day is that of a microsecond (the
// column's grain) before its end, never earlier than its start, so a session of no length counts its day.

/** A set-returning SQL expression of the days (`date`s) covered by the closed session aliased `alias`. */
export function coveredDaysSql(alias: string): string {
  return `generate_series(
    (${alias}.started_at AT TIME ZONE 'UTC')::date,
    (greatest(${alias}.started_at, ${alias}.ended_at - interval '1 microsecond') AT TIME ZONE 'UTC')::date,
    interval '1 day')`;
}
