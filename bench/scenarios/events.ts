// Events for integrations (DECISIONS: Events for integrations) under load, in one run on one database and
// one set of processes (web, worker, a receiver):
//
// 1. The `content` scenario's four writes (bench/lib/content-writes.ts: PUT /library/{game}, POST /reviews,
//    PUT /likes/list/{id}, POST /comments, with keys, at 20 clients) in phases without subscriptions (A),
//    with every writer's app subscribed to every type, all scopes granted, and the worker paused while the
//    writes run (H: it delivers what they made after the phase), and subscribed with the worker delivering
//    meanwhile to a local https receiver (B). The phases go A H B H A by default (BENCH_EVENTS_PHASES), so a
//    drift of the machine or of the growing tables weighs on both sides alike; a phase's events are delivered
//    before the next starts. Target: each write's rate in H at least 0.9x of its rate in A (the means of
//    their runs): what subscribing adds to a write. B is shown beside it: on this 2-core machine the worker,
//    the receiver and their database work then share the cores with the web process and PostgreSQL. Each
//    phase prints the CPU a request costs the web process and the machine, and the worker's share of a core.
// 2. Delivery: a backlog of BENCH_EVENTS_BACKLOG (20,000) `library.entry.saved` events of real entries of
//    subscribed writers, inserted in one transaction as the triggers would write them (data left to the
//    delivery, so each is rendered through GET /library/{game}'s loader), is queued at commit by the worker's
//    dispatcher and delivered. Target: at least 1,000 a second from commit to the last delivery; p50 and
//    p95 from created_at to delivered_at, and the worker's CPU per event.
//
// The web process is on core 0 as in `content`; the worker and the receiver run on the load generator's
// core (BENCH_EVENTS_WORKER_CORES), so what the worker spends is not taken from the web process alone.
// Subscriptions are set and removed as PATCH /account/apps/{id} does (updateAppAndEvents, the URL checked
// through the outbound guard's test door).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EVENT_TYPES, EVENT_TYPE_SCOPES } from '../../shared/events/event-types.js';
import { resetConfigForTests } from '../../shared/platform/config.js';
import { createKnex } from '../../shared/platform/db/knex.js';
import { startApiServer } from '../lib/api-server.js';
import {
  contentWrites,
  KEY_PREFIX,
  prepareContent,
  WRITE_ROWS,
  WRITER_SCOPES,
  type Scopes,
  type WriteLoad,
} from '../lib/content-writes.js';
import { cpuMs, machineCpuMs } from '../lib/cpu.js';
import { startEventSink, type EventSink } from '../lib/event-sink.js';
import { delta, drain, meanOf, ms, sampleWaits, subscribeAll } from '../lib/event-phases.js';
import { deliverBacklog, explainTrigger } from '../lib/event-backlog.js';
import { measure, warmUp, type LoadResult } from '../lib/load.js';
import { startServer, type ServerProcess } from '../lib/processes.js';
import { printCells, type Row } from '../lib/table.js';
import type { Scenario } from '../scenario.js';
import { createLists } from './content-social.js';

type Phase = 'A' | 'H' | 'B';
const PHASES = [...(process.env.BENCH_EVENTS_PHASES ?? 'AHBHA').toUpperCase()].filter(
  (p): p is Phase => p === 'A' || p === 'H' || p === 'B',
);
const BACKLOG = Number(process.env.BENCH_EVENTS_BACKLOG ?? 20_000);
const WORKER_CORES = process.env.BENCH_EVENTS_WORKER_CORES ?? '1';
const ORIGIN = 'http://localhost:3000';
const SECRET = 'bench-secret-0123456789abcdef0123456789';
/** Each write's rate subscribed, as a share of its rate without. */
const TARGET_RATIO = 0.9;
const TARGET_PER_SECOND = 1000;
/** Every scope a type of the catalogue needs, beside the writers' own. */
const SCOPES: Scopes = [
  ...new Set([...WRITER_SCOPES, ...Object.values(EVENT_TYPE_SCOPES).filter((scope) => scope !== null)]),
];

/**
 * A: no subscriptions. H: every writer subscribed, the worker paused while the writes are measured (it
 * delivers after): what subscribing adds to a write, the target. B: subscribed with the worker delivering
 * meanwhile, shown beside it: on this 2-core machine the worker, the receiver and their database work then
 * share the two cores with the web process and PostgreSQL, where a deployment gives workers their own.
 */
const LABEL = { A: 'no subscriptions', H: 'subscribed', B: 'subscribed, delivering meanwhile' } as const;

interface PhaseRun {
  phase: Phase;
  results: Map<string, LoadResult>;
  requests: number;
  seconds: number;
  webCpu: number | null;
  machineCpu: number | null;
  workerCpu: number | null;
  sinkCpu: number | null;
  made: number;
  delivered: number;
  pendingAtEnd: number;
  waits: string;
}

export const events: Scenario = {
  description:
    "the content scenario's four writes without and with every writer's app subscribed to every event type " +
    `(phases ${PHASES.join(' ')}), then a backlog of ${BACKLOG} events delivered by one worker to a local https receiver`,
  target: TARGET_RATIO,
  setup:
    `20 connections; each write 3 s unmeasured, then one 10 s run per phase (${PHASES.join(' ')}), each ` +
    'phase its mean; web process on core 0, worker and receiver on the load generator core',
  async run({ database, durationSeconds }) {
    process.env.SECRET = SECRET;
    resetConfigForTests();
    const world = await prepareContent(database.url, SCOPES);
    const mediaDir = mkdtempSync(path.join(tmpdir(), 'jogatina-bench-media-'));
    const media = { MEDIA_DIR: mediaDir, PUBLIC_URL: ORIGIN };
    // The web process first: it runs in production, which refuses the test door the receiver is entered in.
    const web: ServerProcess = await startApiServer(database.url, {
      KEY_PREFIX,
      ALLOWANCE_READ_PER_HOUR: '1000000000',
      ALLOWANCE_WRITE_PER_HOUR: '1000000000',
      ...media,
    });
    const sink: EventSink = await startEventSink();
    const knex = createKnex(database.url, 8);
    const problems: string[] = [];
    let worker: ServerProcess | null = null;
    try {
      worker = await startServer(
        'workers/index.ts',
        {
          DATABASE_URL: database.url,
          SECRET,
          LOG_LEVEL: 'info',
          // The test door (OUTBOUND_TEST_*) is refused in production.
          NODE_ENV: 'development',
          ...media,
          OUTBOUND_TEST_HOSTS: process.env.OUTBOUND_TEST_HOSTS ?? '',
          OUTBOUND_TEST_CA_FILE: process.env.OUTBOUND_TEST_CA_FILE ?? '',
        },
        'worker ready',
        { cores: WORKER_CORES },
      );
      const base = `http://127.0.0.1:${web.port}`;
      const lists = await createLists(base, world);
      const writes = contentWrites(world, lists);
      const measured = Math.max(durationSeconds, 10);
      const options = (load: WriteLoad, seconds: number) => ({
        ...load,
        url: `${base}/api/v1/me`,
        connections: 20,
        durationSeconds: seconds,
      });
      for (const [, load] of writes.routes) await warmUp(options(load, 3), 3);

      // 1. The writes, phase by phase.
      let subscribed = false;
      const runs: PhaseRun[] = [];
      for (const phase of PHASES) {
        if (phase !== 'A' && !subscribed) {
          const started = Date.now();
          await subscribeAll(knex, world, sink.url);
          console.log(
            `subscribed ${world.appIds.length} apps to ${EVENT_TYPES.length} types in ${Date.now() - started} ms`,
          );
          subscribed = true;
        }
        if (phase === 'A' && subscribed) {
          const drained = await drain(knex);
          if (drained === null) problems.push('events made in a subscribed phase still pending after 300 s');
          else console.log(`the subscribed phase's events delivered ${drained} ms after it ended`);
          await subscribeAll(knex, world, null);
          subscribed = false;
        }
        const before = {
          web: cpuMs(web.pid),
          machine: machineCpuMs(),
          worker: cpuMs(worker.pid),
          sink: cpuMs(sink.pid),
          events: (await sink.counts()).events,
          made: Number((await knex.raw(`SELECT last_value FROM app_event_seq`)).rows[0].last_value),
          at: performance.now(),
        };
        const held = phase === 'H';
        if (held) process.kill(worker.pid, 'SIGSTOP');
        const stopSampling = sampleWaits(knex);
        const results = new Map<string, LoadResult>();
        for (const [name, load] of writes.routes) {
          const result = await measure(options(load, measured));
          if (result.errors > 0) {
            problems.push(
              `${name} (${LABEL[phase]}): ${result.errors} error(s), statuses ${JSON.stringify(result.unexpected)}`,
            );
          }
          results.set(name, result);
        }
        const waits = await stopSampling();
        if (held) process.kill(worker.pid, 'SIGCONT');
        const made = Number((await knex.raw(`SELECT last_value FROM app_event_seq`)).rows[0].last_value) - before.made;
        const { rows: pending } = await knex.raw(`SELECT count(*)::int AS n FROM app_events WHERE status = 'pending'`);
        const run: PhaseRun = {
          phase,
          results,
          requests: [...results.values()].reduce((sum, r) => sum + r.requests, 0),
          seconds: (performance.now() - before.at) / 1000,
          webCpu: delta(cpuMs(web.pid), before.web),
          machineCpu: delta(machineCpuMs(), before.machine),
          workerCpu: delta(cpuMs(worker.pid), before.worker),
          sinkCpu: delta(cpuMs(sink.pid), before.sink),
          // The sequence counts every event the triggers made (and the few a conflict dropped).
          made: phase === 'A' ? 0 : made,
          delivered: (await sink.counts()).events - before.events,
          pendingAtEnd: pending[0].n,
          waits,
        };
        runs.push(run);
        console.log(
          `phase ${runs.length} (${phase}, ${LABEL[phase]}): ` +
            WRITE_ROWS.map((name) => `${name} ${results.get(name)!.requestsPerSecond.toFixed(0)}`).join(', ') +
            ` req/s; per request ${ms(run.webCpu && run.webCpu / run.requests)} ms web CPU, ` +
            `${ms(run.machineCpu && run.machineCpu / run.requests)} ms machine CPU; worker ` +
            `${ms(run.workerCpu && run.workerCpu / run.seconds / 10, 0)}% of a core; ${run.made} events made, ` +
            `${run.delivered} delivered meanwhile, ${run.pendingAtEnd} pending at the end; database backends: ` +
            run.waits,
        );
        if (held) {
          // What the held phase made goes out before the next phase is measured.
          const drained = await drain(knex);
          if (drained === null) problems.push('events made in a held phase still pending after 300 s');
          else console.log(`the held phase's events delivered ${drained} ms after it ended`);
        }
      }
      console.log(`${writes.comments()} comments in all (each commenter may write 30 an hour)`);

      // The table of the writes: each phase's mean, the ratio, and every run.
      const rows: Row[] = [];
      const lines: string[][] = [];
      let worst: { name: string; ratio: number } | null = null;
      for (const name of WRITE_ROWS) {
        const of = (phase: Phase) => runs.filter((r) => r.phase === phase).map((r) => r.results.get(name)!);
        const [without, withEvents] = [meanOf(of('A')), meanOf(of('H'))];
        const meanwhile = of('B').length > 0 ? meanOf(of('B')) : null;
        const ratio = withEvents.requestsPerSecond / without.requestsPerSecond;
        const met = ratio >= TARGET_RATIO;
        if (!met)
          problems.push(`${name}: subscribed at ${ratio.toFixed(2)}x of its rate without (target ${TARGET_RATIO}x)`);
        if (worst === null || ratio < worst.ratio) worst = { name, ratio };
        rows.push(
          { name: `${name}, ${LABEL.A}`, result: without },
          { name: `${name}, ${LABEL.H}`, result: withEvents },
          ...(meanwhile ? [{ name: `${name}, ${LABEL.B}`, result: meanwhile }] : []),
        );
        lines.push([
          name,
          without.requestsPerSecond.toFixed(0),
          withEvents.requestsPerSecond.toFixed(0),
          `${ratio.toFixed(2)}x`,
          meanwhile
            ? `${meanwhile.requestsPerSecond.toFixed(0)} (${(meanwhile.requestsPerSecond / without.requestsPerSecond).toFixed(2)}x)`
            : '-',
          `${without.p95.toFixed(1)} / ${withEvents.p95.toFixed(1)}`,
          runs.map((r) => `${r.phase} ${r.results.get(name)!.requestsPerSecond.toFixed(0)}`).join(', '),
          met ? 'pass' : 'FAIL',
        ]);
      }
      const cpuLine = (phase: Phase, what: (r: PhaseRun) => number | null, per: (r: PhaseRun) => number) => {
        const values = runs.filter((r) => r.phase === phase).map((r) => what(r));
        if (values.some((v) => v === null)) return '-';
        return (
          values.reduce((sum: number, v) => sum + v!, 0) /
          runs.filter((r) => r.phase === phase).reduce((sum, r) => sum + per(r), 0)
        ).toFixed(3);
      };
      printCells(
        `events, the writes: req/s without subscriptions (A) and with every writer's app subscribed to every type, ` +
          `delivered after the phase (H) or meanwhile on the same two cores (B), each the mean of its phase runs ` +
          `(phases ${PHASES.join(' ')}: alternated because single 10 s runs on this 2-core machine vary by several ` +
          `per cent); target: H at least ${TARGET_RATIO}x of A`,
        ['write', 'A req/s', 'H req/s', 'H / A', 'B req/s (B / A)', 'p95 ms A / H', 'each run in order', 'target'],
        lines,
      );
      printCells(
        'events, the cost of a request in each phase (CPU ms per request; the worker and receiver % of a core)',
        ['phase', 'web ms', 'machine ms', 'worker %', 'receiver %', 'events made', 'delivered meanwhile'],
        (['A', 'H', 'B'] as const)
          .filter((phase) => PHASES.includes(phase))
          .map((phase) => [
            LABEL[phase],
            cpuLine(
              phase,
              (r) => r.webCpu,
              (r) => r.requests,
            ),
            cpuLine(
              phase,
              (r) => r.machineCpu,
              (r) => r.requests,
            ),
            cpuLine(
              phase,
              (r) => r.workerCpu,
              (r) => r.seconds * 10,
            ),
            cpuLine(
              phase,
              (r) => r.sinkCpu,
              (r) => r.seconds * 10,
            ),
            String(runs.filter((r) => r.phase === phase).reduce((sum, r) => sum + r.made, 0)),
            String(runs.filter((r) => r.phase === phase).reduce((sum, r) => sum + r.delivered, 0)),
          ]),
      );

      // 2. Delivery of a backlog.
      if (!subscribed) await subscribeAll(knex, world, sink.url);
      await explainTrigger(knex, world);
      if ((await drain(knex)) === null) problems.push('events still pending before the backlog after 300 s');
      const delivery = await deliverBacklog(knex, BACKLOG, TARGET_PER_SECOND, world, worker, sink, problems);

      const { rows: statuses } = await knex.raw(
        `SELECT status, count(*)::int AS n, min(last_error) AS error FROM app_events GROUP BY status ORDER BY status`,
      );
      console.log(
        `app_events at the end: ${(statuses as Array<{ status: string; n: number; error: string | null }>)
          .map((s) => `${s.n} ${s.status}${s.error ? ` (e.g. ${s.error})` : ''}`)
          .join(', ')}`,
      );
      for (const s of statuses as Array<{ status: string; n: number; error: string | null }>) {
        if (s.status === 'failed') problems.push(`${s.n} event(s) failed (e.g. ${s.error})`);
      }
      const writesMet = worst!.ratio >= TARGET_RATIO;
      const deliveryMet = delivery.perSecond >= TARGET_PER_SECOND;
      return {
        rows,
        baseline: `${worst!.name}, ${LABEL.A}`,
        subject: `${worst!.name}, ${LABEL.H}`,
        problems,
        summary:
          `events: ${writesMet && deliveryMet && problems.length === 0 ? 'targets met' : 'TARGETS MISSED'}: ` +
          `subscribed writes at ${runs.length > 0 ? worst!.ratio.toFixed(2) : '-'}x of their rate without at the ` +
          `least (${worst!.name}; target ${TARGET_RATIO}x); ${delivery.delivered} events delivered at ` +
          `${delivery.perSecond.toFixed(0)} a second (target ${TARGET_PER_SECOND}), p50 ${delivery.p50.toFixed(0)} ms, ` +
          `p95 ${delivery.p95.toFixed(0)} ms from created_at, ${ms(delivery.cpuPerEvent)} ms of worker CPU an event`,
      };
    } finally {
      await worker?.stop();
      await web.stop();
      await knex.destroy();
      await sink.close();
      rmSync(mediaDir, { recursive: true, force: true });
    }
  },
};
