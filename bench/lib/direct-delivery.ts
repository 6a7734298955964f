// The `data-events` benchmark's baseline: the same number of events, signed beforehand with the service's
// key, POSTed by the benchmark itself straight to the same https receiver with what the worker's delivery
// uses at its best (undici, kept connections, as many per receiver as the worker keeps, as many requests in
// flight as the worker's slots) and nothing else: no job, lease, database write, guard or signing on the
// way. The worker's rate as a share of this one says how near the service is to what the machine allows.
import { readFileSync } from 'node:fs';
import type { Knex } from 'knex';
import { Pool } from 'undici';
import { signToken } from '../../shared/identity/signing-keys.js';
import { QUEUES } from '../../shared/platform/jobs/queue.js';
import { CONNECTIONS_PER_RECEIVER } from '../../shared/platform/net/pinned-client.js';

export interface DirectRun {
  delivered: number;
  seconds: number;
  perSecond: number;
}

/** A receiver as the fake host serves it: its name (its certificate's) and where it listens. */
export interface Receiver {
  name: string;
  port: number;
}

/** Signs `count` data events of `appId` as the worker would (same claims, key and `typ`). */
export async function signedEvents(
  knex: Knex,
  secret: string,
  issuer: string,
  appId: string,
  count: number,
): Promise<Array<{ id: string; token: string }>> {
  const events = [];
  for (let i = 0; i < count; i += 1) {
    const id = crypto.randomUUID();
    const claims = {
      iss: issuer,
      aud: appId,
      jti: id,
      type: 'nickname_changed',
      sub: crypto.randomUUID(),
      data: { nickname: `player ${i}` },
    };
    events.push({ id, token: await signToken(knex, secret, claims, { typ: 'data-event+jwt' }) });
  }
  return events;
}

/** POSTs every token to `receiver`'s `path`, with the worker's connections and requests in flight. */
export async function deliverDirectly(
  receiver: Receiver,
  path: string,
  events: Array<{ id: string; token: string }>,
): Promise<DirectRun> {
  const caFile = process.env.OUTBOUND_TEST_CA_FILE;
  const pool = new Pool(`https://127.0.0.1:${receiver.port}`, {
    connections: CONNECTIONS_PER_RECEIVER,
    keepAliveTimeout: 4000,
    pipelining: 1,
    connect: { servername: receiver.name, ...(caFile ? { ca: readFileSync(caFile) } : {}) },
  });
  const inFlight = QUEUES['data-event.deliver'].slots ?? 1;
  let next = 0;
  let delivered = 0;
  const started = performance.now();
  const one = async () => {
    for (let i = next++; i < events.length; i = next++) {
      const response = await pool.request({
        path,
        method: 'POST',
        headers: {
          host: receiver.name,
          'content-type': 'application/jwt',
          'webhook-id': events[i].id,
          'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        },
        body: events[i].token,
      });
      await response.body.dump();
      if (response.statusCode >= 200 && response.statusCode < 300) delivered += 1;
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(inFlight, events.length) }, one));
  } finally {
    await pool.close();
  }
  const seconds = (performance.now() - started) / 1000;
  return { delivered, seconds, perSecond: delivered / seconds };
}
