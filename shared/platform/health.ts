// What `GET /health` reports (whether the database answers, and whether the queue's tables do), and what
// `GET /health/ready` adds for a load balancer: whether the schema is this build's.
import type { Knex } from 'knex';
import type PgBoss from 'pg-boss';
import { pendingMigrations } from './db/migrations.js';

export type PartStatus = 'ok' | 'down';

export interface Health {
  database: PartStatus;
  queue: PartStatus;
}

const CHECK_TIMEOUT_MS = 2000;

async function within(check: () => Promise<unknown>): Promise<PartStatus> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<PartStatus>((resolve) => {
    timer = setTimeout(() => resolve('down'), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check().then((): PartStatus => 'ok'), timeout]);
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

export async function checkHealth(knex: Knex, boss: PgBoss | null): Promise<Health> {
  const [database, queue] = await Promise.all([
    within(() => knex.raw('SELECT 1')),
    boss ? within(() => boss.getQueues()) : Promise.resolve<PartStatus>('down'),
  ]);
  return { database, queue };
}

export interface Readiness extends Health {
  /** `pending` while this build has migrations the database lacks; `down` when it cannot be read. */
  migrations: 'ok' | 'pending' | 'down';
}

export async function checkReadiness(knex: Knex, boss: PgBoss | null): Promise<Readiness> {
  let migrations: Readiness['migrations'] = 'down';
  const [health] = await Promise.all([
    checkHealth(knex, boss),
    within(async () => {
      migrations = (await pendingMigrations(knex)).length === 0 ? 'ok' : 'pending';
    }),
  ]);
  return { ...health, migrations };
}

export function isReady(readiness: Readiness): boolean {
  return readiness.database === 'ok' && readiness.queue === 'ok' && readiness.migrations === 'ok';
}
