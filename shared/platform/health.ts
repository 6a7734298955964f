// What `GET /health` reports: whether the database answers, and whether the queue's tables do
// (`GET /health/ready` adds the schema: db/readiness.ts).
import type { Knex } from 'knex';
import type PgBoss from 'pg-boss';

export type PartStatus = 'ok' | 'down';

export interface Health {
  database: PartStatus;
  queue: PartStatus;
}

const CHECK_TIMEOUT_MS = 2000;

export async function within(check: () => Promise<unknown>): Promise<PartStatus> {
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
