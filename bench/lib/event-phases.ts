// What the events benchmark (bench/scenarios/events.ts) measures its phases with: subscribing every writer
// as PATCH /account/apps/{id} does, waiting for the events to drain, sampling what the database's backends
// wait on, and the mean of a phase's runs.
import type { Knex } from 'knex';
import { EVENT_TYPES } from '../../shared/events/event-types.js';
import { updateAppAndEvents } from '../../shared/events/subscriptions.js';
import { config } from '../../shared/platform/config.js';
import type { ContentWorld } from './content-writes.js';
import type { LoadResult } from './load.js';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const delta = (after: number | null, before: number | null) =>
  after === null || before === null ? null : after - before;

/** Every writer's app subscribed to `url` for every type (or, with null, not at all), as the PATCH does it. */
export async function subscribeAll(knex: Knex, world: ContentWorld, url: string | null): Promise<void> {
  const settings = { testHosts: config().outbound.testHosts };
  let next = 0;
  const one = async () => {
    for (let i = next++; i < world.appIds.length; i = next++) {
      await updateAppAndEvents(
        knex,
        world.writerIds[i],
        world.appIds[i],
        { events: url ? { url, types: EVENT_TYPES } : null },
        settings,
      );
    }
  };
  await Promise.all(Array.from({ length: 8 }, one));
}

/** Waits until no event is pending (at most `limitMs`); answers how long it took, null when it did not. */
export async function drain(knex: Knex, limitMs = 300_000): Promise<number | null> {
  const started = Date.now();
  while (Date.now() - started < limitMs) {
    const { rows } = await knex.raw(`SELECT count(*)::int AS n FROM app_events WHERE status = 'pending'`);
    if (rows[0].n === 0) return Date.now() - started;
    await sleep(250);
  }
  return null;
}

/**
 * Samples what the database's client backends are waiting on, every 50 ms until stopped: where a write's
 * time goes when it is not CPU (a lock, the WAL flush). Answers each wait's share of the active samples.
 */
export function sampleWaits(knex: Knex): () => Promise<string> {
  const counts = new Map<string, number>();
  let samples = 0;
  let stopped = false;
  const sampling = (async () => {
    while (!stopped) {
      const { rows } = await knex.raw(
        `SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') AS wait, count(*)::int AS n
           FROM pg_stat_activity WHERE state = 'active' AND backend_type = 'client backend' AND pid <> pg_backend_pid()
          GROUP BY 1`,
      );
      for (const row of rows as Array<{ wait: string; n: number }>) {
        counts.set(row.wait, (counts.get(row.wait) ?? 0) + row.n);
        samples += row.n;
      }
      await sleep(50);
    }
  })();
  return async () => {
    stopped = true;
    await sampling;
    return [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([wait, n]) => `${wait} ${((n / Math.max(1, samples)) * 100).toFixed(0)}%`)
      .join(', ');
  };
}

/** The mean of runs: rate and percentiles averaged, requests and errors summed. */
export function meanOf(results: LoadResult[]): LoadResult {
  const mean = (pick: (r: LoadResult) => number) => results.reduce((sum, r) => sum + pick(r), 0) / results.length;
  return {
    requestsPerSecond: mean((r) => r.requestsPerSecond),
    p50: mean((r) => r.p50),
    p95: mean((r) => r.p95),
    p99: mean((r) => r.p99),
    requests: results.reduce((sum, r) => sum + r.requests, 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
  };
}

export const ms = (value: number | null, digits = 2) => (value === null ? '-' : value.toFixed(digits));
