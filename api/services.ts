// What routes and middleware reach through `ctx.services`: built once per process in createApp.
import type { Knex } from 'knex';
import type PgBoss from 'pg-boss';
import type { AuthServices } from '../shared/auth/services.js';
import type { Allowances } from '../shared/keys/allowances.js';
import type { Logger } from '../shared/logger.js';

export interface ApiServices {
  knex: Knex;
  log: Logger;
  boss: () => PgBoss | null;
  auth: AuthServices;
  allowances: Allowances;
  keyPrefix: string;
  publicOrigin: string;
  /** `__Host-sid` with Secure when the site is https, else `sid`. */
  sessionCookie: { name: string; secure: boolean };
}

declare module 'koa' {
  interface DefaultContext {
    services: ApiServices;
  }
}
