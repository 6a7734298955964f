// Starts the real Koa app on an ephemeral loopback port against the run's database.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type Router from '@koa/router';
import type { Knex } from 'knex';
import type PgBoss from 'pg-boss';
import { createApp } from '../../api/app.js';
import type { AppState } from '../../api/context.js';
import { answerClientErrors } from '../../api/client-error.js';
import { closeServer } from '../../api/close-server.js';
import { db } from '../../shared/platform/db/knex.js';
import { boss, bossStarted } from '../../shared/platform/jobs/boss.js';
import { config, type ImageConfig } from '../../shared/platform/config.js';
import type { Allowances } from '../../shared/keys/allowances.js';
import type { MediaStorage } from '../../shared/platform/storage/media-storage.js';
import { createLogger } from '../../shared/platform/logger.js';
import { JobReplies } from '../../shared/platform/jobs/request-reply.js';
import { Signals } from '../../shared/platform/jobs/signals.js';
import { TestClient } from './http-client.js';
import { observeResponses } from './openapi-observer.js';

export interface TestApp {
  client: TestClient;
  /** Every log line the app wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** TRUST_PROXY of the app: 1 unless a test says otherwise. */
  trustProxy?: number;
  /** PUBLIC_URL of the app (the site's origin): SITE_ORIGIN unless a test says otherwise. */
  publicUrl?: string;
  extraRoutes?: Router<AppState>[];
  knex?: Knex;
  boss?: () => PgBoss | null;
  allowances?: Allowances;
  /** A storage in a temporary folder, so tests never write into `.data/`. */
  media?: MediaStorage;
  /** Upload waits and the busy threshold, to reach them in a test. */
  images?: Partial<ImageConfig>;
  /** Serves GET /metrics with this bearer token. */
  metricsToken?: string;
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
  const log = createLogger('info', sink);
  const knex = options.knex ?? db();
  const signals = new Signals(process.env.DATABASE_URL!, createLogger('silent'));
  const app = createApp({
    knex,
    log,
    replies: new JobReplies(signals, knex, log),
    config: {
      ...config(),
      ...(options.publicUrl ? { publicUrl: options.publicUrl, publicOrigin: options.publicUrl } : {}),
      images: { ...config().images, ...options.images },
      metricsToken: options.metricsToken ?? config().metricsToken,
    },
    boss: options.boss ?? (() => (bossStarted() ? boss() : null)),
    extraRoutes: options.extraRoutes,
    allowances: options.allowances,
    media: options.media,
    // Tests give each client its own X-Forwarded-For address, so attempt limits stay per test.
    trustProxy: options.trustProxy ?? 1,
  });
  // Outermost, so it sees each answer as the client gets it (errors already rendered).
  app.middleware.unshift(observeResponses());
  const server = http.createServer(app.callback());
  answerClientErrors(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    client: new TestClient(`http://127.0.0.1:${port}`),
    logs,
    close: async () => {
      await closeServer(server, 1000);
      await app.context.services.views.flush();
      await signals.close();
    },
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
