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
import { config } from '../../shared/config.js';
import type { Allowances } from '../../shared/keys/allowances.js';
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
  allowances?: Allowances;
}

/** The site's own origin, which the session cookie needs. */
export const SITE_ORIGIN = 'http://localhost:3000';

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
    config: config(),
    boss: options.boss ?? (() => (bossStarted() ? boss() : null)),
    extraRoutes: options.extraRoutes,
    allowances: options.allowances,
    // Tests give each client its own X-Forwarded-For address, so attempt limits stay per test.
    proxy: true,
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

/** Starts the app for a describe block and closes it after: `const app = useTestApp();`. */
export function useTestApp(options: TestAppOptions = {}): Pick<TestApp, 'client' | 'logs'> {
  let app: TestApp | null = null;
  before(async () => {
    app = await startTestApp(options);
  });
  after(() => app?.close());
  return {
    get client() {
      return app!.client;
    },
    get logs() {
      return app!.logs;
    },
  };
}
