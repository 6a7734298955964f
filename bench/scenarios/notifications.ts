// Notifications (issue 24): (a) how many notifications a burst of follows and of likes through the API
// writes a second, each request made anew (a random person's key follows a random other person, or likes a
// random review of someone else) at 20 clients against one web process; (b) 1,000 open streams on one web
// process (GET /notifications/stream, each a different person's session): the delivery latency of a few
// hundred notifications written to random ones of them (from the commit's start to the event read by the
// client; target p95 under 2 s), and what an open stream costs the web process (RSS and heap, before and
// after opening them, divided). Everything on 127.0.0.1.
import http from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Knex } from 'knex';
import { Account } from '../../shared/accounts/account.js';
import { claimFirstUsername } from '../../shared/accounts/usernames.js';
import { startSession } from '../../shared/auth/sessions.js';
import { createApp, updateApp } from '../../shared/keys/apps.js';
import { createKey } from '../../shared/keys/keys.js';
import { notify } from '../../shared/notifications/notify.js';
import { createKnex } from '../../shared/platform/db/knex.js';
import { parseEvents } from '../../test/helpers/event-stream.js';
import { startApiServer } from '../lib/api-server.js';
import { measure, percentile, type LoadResult } from '../lib/load.js';
import { between, pick } from '../lib/random.js';
import type { Row } from '../lib/table.js';
import type { Scenario } from '../scenario.js';

const PEOPLE = Number(process.env.BENCH_NOTIFICATIONS_PEOPLE ?? 1000);
const REVIEWS_EACH = 5;
const STREAMS = Math.min(PEOPLE, Number(process.env.BENCH_NOTIFICATIONS_STREAMS ?? 1000));
const DELIVERIES = Number(process.env.BENCH_NOTIFICATIONS_DELIVERIES ?? 300);
/** Deliveries are written one every this many ms (100 a second), not awaited: a steady stream of news. */
const DELIVERY_EVERY_MS = 10;
const TARGET_P95_MS = 2000;
const PREFIX = 'jgt_live_';
const ORIGIN = 'http://localhost:3000';
const METRICS_TOKEN = 'bench-metrics-token';
const FOLLOWS = 'PUT /social/following/{u}';
const LIKES = 'PUT /likes/review/{id}';
const DELIVERY = `stream delivery, ${STREAMS} open streams`;

interface World {
  ids: string[];
  usernames: string[];
  tokens: string[];
  cookies: string[];
  reviews: Array<{ id: string; ownerIndex: number }>;
}

async function prepare(knex: Knex): Promise<World> {
  const started = Date.now();
  const [game] = await knex('games').insert({ slug: 'bench-notifications', name: 'Bench' }).returning('id');
  const world: World = { ids: [], usernames: [], tokens: [], cookies: [], reviews: [] };
  for (let i = 0; i < PEOPLE; i += 1) {
    const username = `bn_${i}`;
    const created = await Account.query(knex).insertAndFetch({
      email: `bench-notifications-${randomBytes(4).toString('hex')}@example.test`,
    });
    const account = await knex.transaction((trx) => claimFirstUsername(trx, created.id, username));
    const app = await createApp(knex, account.id, { name: 'bench' });
    await updateApp(knex, account.id, app.id, { scopes: ['profile.write', 'social.write'] });
    world.tokens.push((await createKey(knex, PREFIX, account.id, app.id, { name: 'bench' })).token);
    world.cookies.push(`sid=${(await startSession(knex, account, { userAgent: 'bench', ip: null })).token}`);
    world.ids.push(account.id);
    world.usernames.push(username);
  }
  const reviews = world.ids.flatMap((accountId) =>
    Array.from({ length: REVIEWS_EACH }, () => ({ account_id: accountId, game_id: game.id, body: 'Bench.' })),
  );
  for (let i = 0; i < reviews.length; i += 1000) {
    const rows: Array<{ id: string; account_id: string }> = await knex('reviews')
      .insert(reviews.slice(i, i + 1000))
      .returning(['id', 'account_id']);
    for (const row of rows) world.reviews.push({ id: row.id, ownerIndex: world.ids.indexOf(row.account_id) });
  }
  await knex.raw('VACUUM ANALYZE');
  console.log(
    `seeded ${PEOPLE} people with keys and sessions and ${world.reviews.length} reviews in ` +
      `${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  return world;
}

/**
 * Every notification written so far: each row but likes', plus each like a like notification counts (a like
 * collapsed into one already there is a write of its own, the stream sends it again); and the rows there are.
 */
async function written(knex: Knex): Promise<{ writes: number; rows: number }> {
  const { rows } = await knex.raw(
    `SELECT count(*) FILTER (WHERE kind <> 'like')
              + coalesce(sum((data->>'count')::int) FILTER (WHERE kind = 'like'), 0) AS writes,
            count(*) AS rows
     FROM notifications`,
  );
  return { writes: Number(rows[0].writes), rows: Number(rows[0].rows) };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Someone other than person `self`. */
function other(self: number): number {
  let chosen = between(0, PEOPLE - 1);
  while (chosen === self) chosen = between(0, PEOPLE - 1);
  return chosen;
}

async function burst(
  knex: Knex,
  base: string,
  name: string,
  seconds: number,
  generate: () => { method: string; path: string; headers: Record<string, string> },
  problems: string[],
): Promise<Row> {
  const before = await written(knex);
  const started = performance.now();
  const result = await measure({
    url: `${base}/api/v1/me`,
    connections: 20,
    durationSeconds: seconds,
    generate,
    expectStatus: 200,
  });
  const elapsed = (performance.now() - started) / 1000;
  const after = await written(knex);
  const writes = after.writes - before.writes;
  console.log(
    `${name}: ${result.requests} requests wrote ${writes} notifications (${after.rows - before.rows} new, ` +
      `${writes - (after.rows - before.rows)} collapsed into one already there): ${(writes / elapsed).toFixed(0)} notifications a second`,
  );
  if (result.errors > 0)
    problems.push(`${name}: ${result.errors} error(s), statuses ${JSON.stringify(result.unexpected)}`);
  return { name, result };
}

/**
 * The web process's resident memory (from /proc) and V8 heap in use (from GET /metrics), in bytes: the least
 * of ten samples 300 ms apart, nearest to what is live once the collector has run.
 */
async function memoryOf(pid: number, base: string): Promise<{ rss: number; heap: number }> {
  let least = { rss: Infinity, heap: Infinity };
  for (let i = 0; i < 10; i += 1) {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)![1]) * 1024;
    const text = await (await fetch(`${base}/metrics`, { headers: bearer(METRICS_TOKEN) })).text();
    const heap = Number(/^jogatina_nodejs_heap_size_used_bytes (\S+)$/m.exec(text)![1]);
    least = { rss: Math.min(least.rss, rss), heap: Math.min(least.heap, heap) };
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return least;
}

/** What the bench reads of a streamed notification. */
interface Shown {
  data?: { comment_id?: string };
}

interface Listener {
  ready: Promise<void>;
  close(): void;
}

/** One open stream; `onNotification` is called as each event is read. */
function listen(base: string, cookie: string, onNotification: (data: Shown) => void): Listener {
  let rest = '';
  let opened: () => void = () => undefined;
  let failed: (error: Error) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => ((opened = resolve), (failed = reject)));
  const request = http.get(`${base}/api/v1/notifications/stream`, { headers: { cookie, origin: ORIGIN } });
  request.on('error', (error) => failed(error));
  request.on('response', (res) => {
    if (res.statusCode !== 200) failed(new Error(`stream answered ${res.statusCode}`));
    res.setEncoding('utf8');
    res.on('error', () => undefined);
    res.on('data', (chunk: string) => {
      const parsed = parseEvents(rest + chunk);
      rest = parsed.rest;
      for (const event of parsed.events) {
        if (event.event === 'ready') opened();
        else if (event.event === 'notification') onNotification(event.data);
      }
    });
  });
  return { ready, close: () => request.destroy() };
}

async function streams(knex: Knex, base: string, pid: number, world: World, problems: string[]): Promise<Row> {
  const sent = new Map<string, { at: number; recipient: number }>();
  const latencies: number[] = [];
  let misdelivered = 0;
  const received = (index: number) => (data: Shown) => {
    const write = sent.get(data.data?.comment_id ?? '');
    if (!write) return;
    if (write.recipient !== index) misdelivered += 1;
    else latencies.push(performance.now() - write.at);
  };
  // The hub, its LISTEN and the code paths exist before the measured memory.
  const warm = listen(base, world.cookies[0], () => undefined);
  await warm.ready;
  warm.close();
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const before = await memoryOf(pid, base);
  const listeners: Listener[] = [];
  const opening = performance.now();
  for (let i = 0; i < STREAMS; i += 50) {
    const batch = Array.from({ length: Math.min(50, STREAMS - i) }, (_, j) =>
      listen(base, world.cookies[i + j], received(i + j)),
    );
    listeners.push(...batch);
    await Promise.all(batch.map((listener) => listener.ready));
  }
  console.log(`opened ${STREAMS} streams in ${((performance.now() - opening) / 1000).toFixed(1)} s`);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const after = await memoryOf(pid, base);
  console.log(
    `web process with ${STREAMS} open streams: RSS ${(before.rss / 1048576).toFixed(1)} -> ` +
      `${(after.rss / 1048576).toFixed(1)} MiB (${((after.rss - before.rss) / STREAMS / 1024).toFixed(1)} KiB a stream), ` +
      `heap ${(before.heap / 1048576).toFixed(1)} -> ${(after.heap / 1048576).toFixed(1)} MiB ` +
      `(${((after.heap - before.heap) / STREAMS / 1024).toFixed(1)} KiB a stream)`,
  );
  try {
    const writing = performance.now();
    const writes: Array<Promise<void>> = [];
    for (let n = 0; n < DELIVERIES; n += 1) {
      const recipient = between(0, STREAMS - 1);
      const comment = randomUUID();
      sent.set(comment, { at: performance.now(), recipient });
      writes.push(
        notify(knex, {
          recipientId: world.ids[recipient],
          kind: 'comment',
          actorId: world.ids[other(recipient)],
          subject: { kind: 'PROFILE', id: world.usernames[recipient] },
          data: { comment_id: comment, body: 'Bench comment, as long as a short one is.' },
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, DELIVERY_EVERY_MS));
    }
    await Promise.all(writes);
    const deadline = Date.now() + 10_000;
    while (latencies.length + misdelivered < DELIVERIES && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const seconds = (performance.now() - writing) / 1000;
    const missing = DELIVERIES - latencies.length - misdelivered;
    if (missing > 0) problems.push(`${missing} of ${DELIVERIES} notifications never reached their stream`);
    if (misdelivered > 0) problems.push(`${misdelivered} notifications reached someone else's stream`);
    latencies.sort((a, b) => a - b);
    const result: LoadResult = {
      requestsPerSecond: latencies.length / seconds,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      p99: percentile(latencies, 99),
      requests: latencies.length,
      errors: missing + misdelivered,
    };
    const met = result.p95 < TARGET_P95_MS;
    console.log(
      `${met ? 'delivery target met' : 'DELIVERY TARGET MISSED'}: ${latencies.length} notifications to ${STREAMS} ` +
        `open streams, p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms (target under ${TARGET_P95_MS} ms)`,
    );
    if (!met) problems.push(`delivery p95 ${result.p95.toFixed(0)} ms (target under ${TARGET_P95_MS} ms)`);
    return { name: DELIVERY, result };
  } finally {
    for (const listener of listeners) listener.close();
  }
}

export const notifications: Scenario = {
  description:
    `notifications written a second by bursts of follows and likes through the API, then delivery latency ` +
    `and memory with ${STREAMS} open notification streams on one web process`,
  target: 0,
  setup: '20 connections, one run per burst of at least 10 s; deliveries one every 10 ms to random open streams',
  async run({ database, durationSeconds }) {
    const knex = createKnex(database.url, 4);
    const problems: string[] = [];
    try {
      const world = await prepare(knex);
      const web = await startApiServer(database.url, {
        KEY_PREFIX: PREFIX,
        PUBLIC_URL: ORIGIN,
        METRICS_TOKEN,
        ALLOWANCE_READ_PER_HOUR: '1000000000',
        ALLOWANCE_WRITE_PER_HOUR: '1000000000',
      });
      try {
        const base = `http://127.0.0.1:${web.port}`;
        const seconds = Math.max(durationSeconds, 10);
        const rows: Row[] = [];
        rows.push(
          await burst(
            knex,
            base,
            FOLLOWS,
            seconds,
            () => {
              const follower = between(0, PEOPLE - 1);
              return {
                method: 'PUT',
                path: `/api/v1/social/following/${world.usernames[other(follower)]}`,
                headers: bearer(world.tokens[follower]),
              };
            },
            problems,
          ),
        );
        rows.push(
          await burst(
            knex,
            base,
            LIKES,
            seconds,
            () => {
              const review = pick(world.reviews);
              return {
                method: 'PUT',
                path: `/api/v1/likes/review/${review.id}`,
                headers: bearer(world.tokens[other(review.ownerIndex)]),
              };
            },
            problems,
          ),
        );
        rows.push(await streams(knex, base, web.pid, world, problems));
        return { rows, baseline: FOLLOWS, subject: DELIVERY, problems };
      } finally {
        await web.stop();
      }
    } finally {
      await knex.destroy();
    }
  },
};
