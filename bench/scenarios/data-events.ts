// Data events delivered per second: the real worker process delivers a backlog of events of one game to a
// local https receiver (the fake developer host of the tests, reached through the outbound guard's test
// door), each a fresh ES256 JWT. The receiver answers 204 at once, so the number is the service's: the job,
// the lease, signing, the guarded request, the update. Then, in the same run, the benchmark itself POSTs
// the same number of events, signed beforehand, straight to the same receiver with the worker's
// connections and requests in flight (bench/lib/direct-delivery.ts): what the machine allows. Target: the
// worker's rate at least 0.6x of that direct rate, whatever the machine.
import { createKnex } from '../../shared/platform/db/knex.js';
import { config, resetConfigForTests } from '../../shared/platform/config.js';
import { ensureQueues, startBoss, stopBoss } from '../../shared/platform/jobs/boss.js';
import { createLogger } from '../../shared/platform/logger.js';
import { QUEUES } from '../../shared/platform/jobs/queue.js';
import { releaseHeldEvents } from '../../shared/arcade/data-events.js';
import { ensureSigningKeys } from '../../shared/identity/signing-keys.js';
import { startFakeHost } from '../../test/helpers/fake-host.js';
import { startServer } from '../lib/processes.js';
import { cpuMs } from '../lib/cpu.js';
import { deliverDirectly, signedEvents } from '../lib/direct-delivery.js';
import { imageThreading } from '../lib/image-stages.js';
import type { LoadResult } from '../lib/load.js';
import { percentile } from '../lib/load.js';
import type { Scenario } from '../scenario.js';

const EVENTS = Number(process.env.BENCH_DATA_EVENTS ?? 3000);
const SECRET = 'bench-secret-0123456789abcdef0123456789';
/** The worker's rate as a share of the direct one. */
const TARGET_RATIO = 0.6;
const WORKER = 'worker: data events delivered';
const DIRECT = 'direct: already signed, straight to the receiver';

export const dataEvents: Scenario = {
  description:
    `${EVENTS} data events delivered by the worker process to a local https receiver, against the same ` +
    'number sent straight to it already signed',
  target: TARGET_RATIO,
  async run({ database }) {
    const receiver = await startFakeHost({ routes: { '/events': { status: 204 } } });
    process.env.SECRET = SECRET;
    resetConfigForTests();
    const knex = createKnex(database.url, 4);
    const log = createLogger('silent');
    // The worker's image threads share its cores with the deliveries (idle here, but started).
    console.log(imageThreading());
    try {
      await ensureSigningKeys(knex, SECRET);
      const [account] = await knex('accounts')
        .insert({ email: `bench-events-${Date.now()}@example.test` })
        .returning('id');
      const [app] = await knex('apps').insert({ account_id: account.id, name: 'bench', scopes: [] }).returning('id');
      const terms = (await knex('arcade_settings').first('terms_version')).terms_version;
      await knex('arcade_apps').insert({
        app_id: app.id,
        account_id: account.id,
        slug: 'bench-events',
        terms_version: terms,
      });
      const [release] = await knex('arcade_releases')
        .insert({
          app_id: app.id,
          number: 1,
          status: 'approved',
          entry_url: receiver.url('/play/'),
          entry_origin: receiver.origin,
          orientation: 'any',
          platforms: ['desktop'],
          scopes: ['identify'],
          data_events_url: receiver.url('/events'),
        })
        .returning('id');
      // The backlog exists before the release goes live: all of it is held, then released at once.
      const rows = Array.from({ length: EVENTS }, (_, i) => ({
        app_id: app.id,
        player_id: crypto.randomUUID(),
        type: 'nickname_changed',
        data: JSON.stringify({ nickname: `player ${i}` }),
      }));
      for (let i = 0; i < rows.length; i += 1000) await knex('arcade_data_events').insert(rows.slice(i, i + 1000));

      const worker = await startServer(
        'workers/index.ts',
        {
          DATABASE_URL: database.url,
          SECRET,
          LOG_LEVEL: 'info',
          NODE_ENV: 'development',
          OUTBOUND_TEST_HOSTS: process.env.OUTBOUND_TEST_HOSTS ?? '',
          OUTBOUND_TEST_CA_FILE: process.env.OUTBOUND_TEST_CA_FILE ?? '',
        },
        'worker ready',
      );
      const queue = await startBoss(database.url, 'tool', log);
      await ensureQueues(queue, QUEUES);
      try {
        const started = Date.now();
        const cpuBefore = cpuMs(worker.pid);
        await knex.transaction(async (trx) => {
          await trx('arcade_apps').where({ app_id: app.id }).update({ status: 'listed', live_release_id: release.id });
          await releaseHeldEvents(trx, app.id);
        });
        let delivered = 0;
        while (delivered < EVENTS && Date.now() - started < 120_000) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          delivered = Number(
            (await knex('arcade_data_events').where({ app_id: app.id, status: 'delivered' }).count('* as n').first())!
              .n,
          );
        }
        const seconds = (Date.now() - started) / 1000;
        // The worker's share: near a whole core, the worker is what limits the rate.
        if (cpuBefore !== null) {
          const cpu = cpuMs(worker.pid)! - cpuBefore;
          console.log(
            `worker process ${(cpu / delivered).toFixed(2)} ms CPU per event, ${(cpu / seconds / 10).toFixed(0)}% of a core`,
          );
        }
        const { rows: waits } = await knex.raw(
          `SELECT extract(epoch FROM delivered_at - ?::timestamptz) * 1000 AS ms FROM arcade_data_events
           WHERE app_id = ? AND status = 'delivered' ORDER BY 1`,
          [new Date(started).toISOString(), app.id],
        );
        const sorted = waits.map((row: { ms: string }) => Number(row.ms));
        const result: LoadResult = {
          requestsPerSecond: delivered / seconds,
          p50: percentile(sorted, 50),
          p95: percentile(sorted, 95),
          p99: percentile(sorted, 99),
          requests: delivered,
          errors: EVENTS - delivered,
        };
        console.log(
          `worker: ${delivered} events delivered in ${seconds.toFixed(1)} s, ` +
            `${result.requestsPerSecond.toFixed(0)} a second; latencies are from release to delivery`,
        );

        const signed = await signedEvents(knex, SECRET, config().publicUrl, app.id, EVENTS);
        const direct = await deliverDirectly(receiver, '/events', signed);
        console.log(
          `direct: ${direct.delivered} events delivered in ${direct.seconds.toFixed(1)} s, ` +
            `${direct.perSecond.toFixed(0)} a second`,
        );
        const ratio = result.requestsPerSecond / direct.perSecond;
        const directResult: LoadResult = {
          requestsPerSecond: direct.perSecond,
          p50: 0,
          p95: 0,
          p99: 0,
          requests: direct.delivered,
          errors: EVENTS - direct.delivered,
        };
        return {
          rows: [
            { name: DIRECT, result: directResult },
            { name: WORKER, result },
          ],
          baseline: DIRECT,
          subject: WORKER,
          summary: `data-events ratio: ${ratio.toFixed(2)}x (worker / direct)`,
        };
      } finally {
        await stopBoss(5000);
        await worker.stop();
      }
    } finally {
      await knex.destroy();
      await receiver.close();
    }
  },
};
