// The events benchmark's second part (bench/scenarios/events.ts): the plans of the trigger's work in a
// subscribed write, and a backlog of events delivered by one worker, timed from its commit.
import type { Knex } from 'knex';
import type { ContentWorld } from './content-writes.js';
import { cpuMs, machineCpuMs } from './cpu.js';
import { delta, ms, sampleWaits, sleep } from './event-phases.js';
import type { EventSink } from './event-sink.js';
import type { ServerProcess } from './processes.js';
import { printCells } from './table.js';

/**
 * The trigger's part of a library write, subscribed, in a transaction rolled back: the UPDATE's plan with
 * its trigger's time, and the plan of app_event_record's INSERT.
 */
export async function explainTrigger(knex: Knex, world: ContentWorld): Promise<void> {
  const entry = await knex('library_entries').whereIn('account_id', world.writerIds).first('account_id', 'game_id');
  if (!entry) return;
  const rollback = new Error('rollback');
  await knex
    .transaction(async (trx) => {
      // Twice: the first call in a session compiles the trigger's functions and plans their statements.
      const updateOnce = () =>
        trx.raw(
          `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) UPDATE library_entries SET rating = (coalesce(rating, 0) + 1) % 101
            WHERE account_id = ? AND game_id = ?`,
          [entry.account_id, entry.game_id],
        );
      await updateOnce();
      const update = await updateOnce();
      // The function's own INSERT (its source, read back), with this write's values for its arguments.
      const { rows: source } = await trx.raw<{ rows: Array<{ prosrc: string }> }>(
        `SELECT prosrc FROM pg_proc WHERE proname = 'app_event_record'`,
      );
      const values: Record<string, string> = {
        owner: `'${entry.account_id}'::uuid`,
        event_type: `'library.entry.saved'`,
        event_subject: `'x'`,
        event_data: 'NULL::jsonb',
      };
      const statement = /BEGIN([\s\S]*?);\s*END/
        .exec(source[0].prosrc)![1]
        .replace(/\b(owner|event_type|event_subject|event_data)\b/g, (name) => values[name]);
      const insert = await trx.raw(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${statement}`);
      const plan = (result: { rows: Array<{ 'QUERY PLAN': string }> }) =>
        result.rows.map((row) => `  ${row['QUERY PLAN']}`).join('\n');
      console.log(
        `\na library write's trigger, subscribed (the second in a transaction rolled back):\n${plan(update)}`,
      );
      console.log(`app_event_record's INSERT:\n${plan(insert)}\n`);
      throw rollback;
    })
    .catch((error: unknown) => {
      if (error !== rollback) throw error;
    });
}

/**
 * Inserts `backlog` `library.entry.saved` events, one per distinct entry of subscribed writers, in one
 * transaction (the worker's dispatcher finds them within 200 ms of the commit), and times their delivery.
 */
export async function deliverBacklog(
  knex: Knex,
  backlog: number,
  targetPerSecond: number,
  world: ContentWorld,
  worker: ServerProcess,
  sink: EventSink,
  problems: string[],
): Promise<{ delivered: number; perSecond: number; p50: number; p95: number; cpuPerEvent: number | null }> {
  const sentBefore = (await sink.counts()).events;
  const cpuBefore = cpuMs(worker.pid);
  const insertStarted = performance.now();
  const { txid, inserted } = await knex.transaction(async (trx) => {
    const { rows } = await trx.raw(`SELECT txid_current()::text AS txid`);
    const { rowCount } = await trx.raw(
      `INSERT INTO app_events (app_id, account_id, type, subject)
       SELECT s.app_id, e.account_id, 'library.entry.saved', e.game_id::text
         FROM (SELECT account_id, game_id FROM library_entries WHERE account_id = ANY(CAST(? AS uuid[]))
               ORDER BY random() LIMIT ?) e
         JOIN app_event_subscriptions s ON s.account_id = e.account_id AND s.state = 'active'`,
      [world.writerIds as unknown as Knex.Value, backlog],
    );
    return { txid: rows[0].txid as string, inserted: rowCount ?? 0 };
  });
  const committed = Date.now();
  const stopSampling = sampleWaits(knex);
  const machineBefore = machineCpuMs();
  console.log(
    `backlog: ${inserted} events inserted and committed in ${(performance.now() - insertStarted).toFixed(0)} ms`,
  );
  if (inserted < backlog) problems.push(`backlog: only ${inserted} of ${backlog} events could be made`);
  // The receiver's count first (cheap), then the rows' ends.
  const limit = committed + Math.max(120_000, (inserted / 200) * 1000);
  while ((await sink.counts()).events - sentBefore < inserted && Date.now() < limit) await sleep(100);
  let settled = 0;
  while (Date.now() < limit) {
    const { rows } = await knex.raw(
      `SELECT count(*)::int AS n FROM app_events WHERE made_in = ?::bigint AND status <> 'pending'`,
      [txid],
    );
    settled = rows[0].n;
    if (settled >= inserted) break;
    await sleep(200);
  }
  const cpu = delta(cpuMs(worker.pid), cpuBefore);
  const machine = delta(machineCpuMs(), machineBefore);
  console.log(
    `backlog: while it was delivered, the machine ${ms(machine && (machine * 50) / (Date.now() - committed), 0)}% ` +
      `busy (of two cores); database backends: ${await stopSampling()}`,
  );
  const { rows } = await knex.raw(
    `SELECT count(*) FILTER (WHERE status = 'delivered')::int AS delivered,
       count(*) FILTER (WHERE jsonb_exists(data, 'game'))::int AS rendered,
       extract(epoch FROM max(delivered_at) - ?::timestamptz) AS seconds,
       extract(epoch FROM max(delivered_at) - min(created_at)) AS since_created,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM delivered_at - created_at)) * 1000 AS p50,
       percentile_cont(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM delivered_at - created_at)) * 1000 AS p95,
       percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM delivered_at - created_at)) * 1000 AS p99,
       max(extract(epoch FROM delivered_at - created_at)) * 1000 AS slowest
     FROM app_events WHERE made_in = ?::bigint`,
    [new Date(committed).toISOString(), txid],
  );
  const r = rows[0];
  const delivered = Number(r.delivered);
  const seconds = Number(r.seconds);
  const perSecond = delivered / seconds;
  const cpuPerEvent = cpu === null || delivered === 0 ? null : cpu / delivered;
  const [p50, p95] = [Number(r.p50), Number(r.p95)];
  if (delivered < inserted) problems.push(`backlog: ${inserted - delivered} of ${inserted} events not delivered`);
  if (Number(r.rendered) < delivered) {
    problems.push(`backlog: ${delivered - Number(r.rendered)} events delivered without their entry rendered`);
  }
  if (perSecond < targetPerSecond) {
    problems.push(`backlog delivered at ${perSecond.toFixed(0)} a second (target ${targetPerSecond})`);
  }
  const counts = await sink.counts();
  printCells(
    `events, delivery: ${inserted} library.entry.saved events of existing entries queued at once (one worker, ` +
      `slots of app-event.deliver, keep-alive to one https receiver); target: at least ${targetPerSecond} a second`,
    [
      'delivered',
      'seconds',
      'events/s',
      'p50 ms',
      'p95 ms',
      'p99 ms',
      'slowest ms',
      'worker ms CPU/event',
      'worker % of a core',
      'rendered',
      'receiver connections',
      'target',
    ],
    [
      [
        String(delivered),
        seconds.toFixed(1),
        perSecond.toFixed(0),
        p50.toFixed(0),
        p95.toFixed(0),
        Number(r.p99).toFixed(0),
        Number(r.slowest).toFixed(0),
        ms(cpuPerEvent),
        cpu === null ? '-' : (cpu / seconds / 10).toFixed(0),
        String(r.rendered),
        String(counts.connections),
        perSecond >= targetPerSecond ? 'pass' : 'FAIL',
      ],
    ],
  );
  console.log(
    `(times from created_at, the transaction's start, to delivered_at; the rate from the commit to the last ` +
      `delivery; ${Number(r.since_created).toFixed(1)} s from created_at)`,
  );
  return { delivered, perSecond, p50, p95, cpuPerEvent };
}
