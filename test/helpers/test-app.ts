// Starts the real Koa app on an ephemeral loopback port against the run's database.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type Router from '@koa/router';
import type { Knex } from 'knex';
import type PgBoss from 'pg-boss';
import { createApp } from '../../api/app.js';
import type { AppState } from '../../api/context.js';
import { closeServer } from '../../api/close-server.js';
import { db } from '../../shared/db/knex.js';
import { boss, bossStarted } from '../../shared/jobs/boss.js';
import { createLogger } from '../../shared/logger.js';
import { TestClient } from './http-client.js';

export interface TestApp {
  client: TestClient;
  /** Every log line the app wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  extraRoutes?: Router<AppState>[];
  knex?: Knex;
  boss?: () => PgBoss | null;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const logs: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line));
      done();
    },
  });
  const app = createApp({
    knex: options.knex ?? db(),
    log: createLogger('info', sink),
    boss: options.boss ?? (() => (bossStarted() ? boss() : null)),
    extraRoutes: options.extraRoutes,
  });
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    client: new TestClient(`http://127.0.0.1:${port}`),
    logs,
    close: () => closeServer(server, 1000),
  };
}
