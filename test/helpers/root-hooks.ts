// Mocha's global fixtures: one database for the whole run, migrated once, with the process's knex pool
// and pg-boss started on it the way the web and worker processes start theirs.
import { resetConfigForTests } from '../../shared/platform/config.js';
import { closeDatabase, openDatabase } from '../../shared/platform/db/knex.js';
import { migrateLatest } from '../../shared/platform/db/migrations.js';
import { ensureQueues, startBoss, stopBoss } from '../../shared/platform/jobs/boss.js';
import { createLogger } from '../../shared/platform/logger.js';
import { QUEUES } from '../../shared/platform/jobs/queue.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { disagreements, type OpenApiDocument } from './openapi-check.js';
import { observations } from './openapi-observer.js';
import { startTestApp } from './test-app.js';

let database: TestDatabase | null = null;

export async function mochaGlobalSetup(): Promise<void> {
  process.env.NODE_ENV = 'test';
  process.env.SECRET ??= 'test-secret-0123456789abcdef0123456789abcdef';
  database = await createTestDatabase(process.env.DATABASE_URL);
  process.env.DATABASE_URL = database.url;
  process.env.JOGATINA_TEST_DATABASE_WHERE = database.where;
  resetConfigForTests();
  const knex = openDatabase(database.url, 10);
  await migrateLatest(knex);
  const boss = await startBoss(database.url, 'worker', createLogger('silent'));
  await ensureQueues(boss, QUEUES);
}

export async function mochaGlobalTeardown(): Promise<void> {
  await stopBoss(2000);
  await closeDatabase();
  await database?.drop();
}

export const mochaHooks = {
  /** After every test: the reference must list what the routes were seen to answer (openapi-check.ts). */
  async afterAll(this: Mocha.Context) {
    this.timeout(30000);
    const seen = observations();
    if (seen.length === 0) return;
    const app = await startTestApp();
    try {
      const response = await app.client.get('/api/v1/openapi.json');
      if (response.status !== 200) throw new Error(`GET /api/v1/openapi.json answered ${response.status}`);
      const findings = disagreements(response.body as OpenApiDocument, seen);
      if (findings.length > 0) {
        throw new Error(
          `The reference disagrees with ${findings.length} answer(s) seen in tests:\n  ${findings.join('\n  ')}`,
        );
      }
    } finally {
      await app.close();
    }
  },
};
