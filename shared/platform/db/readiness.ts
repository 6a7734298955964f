// What `GET /health/ready` reports for a load balancer: the liveness parts of health.ts, and whether the
// database's schema is this build's (no migration of it pending).
import type { Knex } from 'knex';
import type PgBoss from 'pg-boss';
import { checkHealth, within, type Health } from '../health.js';
import { pendingMigrations } from './migrations.js';

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
