// A person's play statistics (spec: GET /profiles/{username}/stats): built from the closed play sessions
// the reader may see (each session by its own visibility), and from the library and copies only when the
// reader sees the library. Sessions still running count nowhere, as in the game activity totals.
import type { Knex } from 'knex';
import { visibleItems, type ReaderRelation } from './item-visibility.js';
import { coveredDaysSql } from './session-days.js';

export const TASTE_LIMIT = 1000;
const MOST_PLAYED = 10;

export async function playStats(knex: Knex, ownerId: string, relation: ReaderRelation, seesLibrary: boolean) {
  const visible = visibleItems('p', relation);
  const sessions = () =>
    knex('play_sessions as p')
      .where('p.account_id', ownerId)
      .whereNotNull('p.ended_at')
      .whereRaw(visible.sql, visible.bindings);
  const [totals, days, perYear, weekdays, mostPlayed, taste] = await Promise.all([
    sessions().first(
      knex.raw('count(*)::int AS sessions'),
      knex.raw('coalesce(sum(p.minutes), 0)::int AS minutes'),
      knex.raw('count(DISTINCT p.game_id)::int AS games'),
    ),
    // Every day a session covers (one across midnight counts both); a day several share counts once.
    sessions()
      .joinRaw(`CROSS JOIN LATERAL ${coveredDaysSql('p')} AS day`)
      .first(knex.raw('count(DISTINCT day)::int AS days')),
    sessions()
      .select(knex.raw("extract(year FROM p.started_at AT TIME ZONE 'UTC')::int AS year"))
      .select(knex.raw('count(*)::int AS sessions'), knex.raw('sum(p.minutes)::int AS minutes'))
      .groupByRaw('1')
      .orderBy('year'),
    sessions()
      .select(knex.raw("extract(isodow FROM p.started_at AT TIME ZONE 'UTC')::int AS day"))
      .select(knex.raw('sum(p.minutes)::int AS minutes'))
      .groupByRaw('1'),
    sessions()
      .select('p.game_id', knex.raw('sum(p.minutes)::int AS minutes'), knex.raw('count(*)::int AS sessions'))
      .groupBy('p.game_id')
      .orderBy([
        { column: 'minutes', order: 'desc' },
        { column: 'p.game_id', order: 'asc' },
      ])
      .limit(MOST_PLAYED),
    sessions()
      .select('p.game_id', knex.raw('sum(p.minutes)::int AS minutes'))
      .groupBy('p.game_id')
      .orderBy([
        { column: 'minutes', order: 'desc' },
        { column: 'p.game_id', order: 'asc' },
      ])
      .limit(TASTE_LIMIT),
  ]);
  const [platforms, ratings] = seesLibrary
    ? await Promise.all([
        knex('library_copies')
          .where({ account_id: ownerId })
          .select('platform_id', knex.raw('count(*)::int AS copies'))
          .groupBy('platform_id')
          .orderBy([
            { column: 'copies', order: 'desc' },
            { column: 'platform_id', order: 'asc' },
          ]),
        knex('library_entries')
          .where({ account_id: ownerId, ignored: false })
          .whereNotNull('rating')
          // Buckets of 10 points; 100 joins the 90s.
          .select(knex.raw('least(rating / 10, 9)::int * 10 AS bucket'), knex.raw('count(*)::int AS count'))
          .groupByRaw('1')
          .orderBy('bucket'),
      ])
    : [[], []];
  const byDay = new Map((weekdays as Array<{ day: number; minutes: number }>).map((row) => [row.day, row.minutes]));
  return {
    totals: { sessions: totals.sessions, minutes: totals.minutes, days: days.days, games: totals.games },
    per_year: perYear,
    // Monday first (ISO), every day present.
    days_of_week: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, minutes: byDay.get(day) ?? 0 })),
    most_played: mostPlayed,
    copy_platforms: platforms,
    rating_distribution: Array.from({ length: 10 }, (_, i) => ({
      from: i * 10,
      count: (ratings as Array<{ bucket: number; count: number }>).find((row) => row.bucket === i * 10)?.count ?? 0,
    })),
    taste,
  };
}
