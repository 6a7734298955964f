// GET /api/v1/me with an API key (authenticate: hash + one query; allowance: one atomic upsert) against
// a raw node:http server doing the same lookup. Target: at least 0.5x the raw rate, p99 under 20 ms.
import { createKnex } from '../../shared/platform/db/knex.js';
import { Account } from '../../shared/accounts/account.js';
import { createApp } from '../../shared/keys/apps.js';
import { createKey } from '../../shared/keys/keys.js';
import { compareServers } from '../lib/compare.js';
import { startApiServer } from '../lib/api-server.js';
import { startServer } from '../lib/processes.js';
import type { Scenario } from '../scenario.js';

const PREFIX = 'jgt_live_';

export const me: Scenario = {
  description: 'GET /api/v1/me with a key vs raw node:http doing the same key lookup',
  target: 0.5,
  p99TargetMs: 20,
  async run({ database, connections, durationSeconds, rounds }) {
    const knex = createKnex(database.url, 2);
    let token: string;
    try {
      const account = await Account.query(knex).insertAndFetch({
        email: `bench-${Date.now()}@example.test`,
        username: 'bench_user',
      });
      const app = await createApp(knex, account.id, { name: 'bench' });
      token = (await createKey(knex, PREFIX, account.id, app.id, { name: 'bench' })).token;
    } finally {
      await knex.destroy();
    }
    const servers = {
      'raw node:http + pg': await startServer('bench/baselines/raw-me.ts', { DATABASE_URL: database.url }),
      'jogatina GET /me': await startApiServer(database.url, {
        KEY_PREFIX: PREFIX,
        // A run makes far more requests than an hour's read allowance; charging costs the same either way.
        ALLOWANCE_READ_PER_HOUR: '1000000000',
      }),
    };
    try {
      const rows = await compareServers(
        Object.entries(servers).map(([name, server]) => ({
          name,
          load: {
            url: `http://127.0.0.1:${server.port}/api/v1/me`,
            connections,
            durationSeconds,
            headers: { authorization: `Bearer ${token}` },
            expectStatus: 200,
          },
        })),
        rounds,
      );
      return { rows, baseline: 'raw node:http + pg', subject: 'jogatina GET /me' };
    } finally {
      await Promise.all(Object.values(servers).map((server) => server.stop()));
    }
  },
};
