// People pages over demo data of 10,000 accounts and a million library entries: GET
// /profiles/{username}/library and GET /activity through the web process at 20 concurrent requests, each
// cycling over many people and filters. Target: p95 under 25 ms for both.
import { loadDemoCatalog } from '../../shared/catalog/demo/load-demo-catalog.js';
import { createKnex } from '../../shared/db/knex.js';
import { seedDemoPeople } from '../../shared/people/demo-people.js';
import { startApiServer } from '../lib/api-server.js';
import { measure } from '../lib/load.js';
import type { Row } from '../lib/table.js';
import type { Scenario } from '../scenario.js';

const ACCOUNTS = Number(process.env.BENCH_PEOPLE_ACCOUNTS ?? 10000);
const ENTRIES = Number(process.env.BENCH_PEOPLE_ENTRIES ?? 100);

export const people: Scenario = {
  description: `/profiles/{u}/library and /activity over ${ACCOUNTS} people with ${ENTRIES} library entries each, 20 clients`,
  target: 0,
  async run({ database, durationSeconds }) {
    const knex = createKnex(database.url, 4);
    try {
      const started = Date.now();
      await loadDemoCatalog(knex);
      const seeded = await seedDemoPeople(knex, { accounts: ACCOUNTS, entriesPerAccount: ENTRIES });
      await knex.raw('VACUUM ANALYZE');
      console.log(
        `seeded ${seeded.accounts} people, ${seeded.entries} entries, ${seeded.activity} activity items in ` +
          `${((Date.now() - started) / 1000).toFixed(0)} s`,
      );
    } finally {
      await knex.destroy();
    }
    const web = await startApiServer(database.url, { ALLOWANCE_READ_PER_HOUR: '1000000000' });
    try {
      const base = `http://127.0.0.1:${web.port}`;
      const some = Array.from({ length: 200 }, (_, i) => `demo_${(i * 7919) % ACCOUNTS}`);
      const library = some.flatMap((name, i) => [
        `/api/v1/profiles/${name}/library`,
        `/api/v1/profiles/${name}/library?sort=rating&limit=50`,
        `/api/v1/profiles/${name}/library?status=${['COMPLETED', 'PLAYING', 'WISHLIST'][i % 3]}&games=1`,
      ]);
      const activity = some.flatMap((name) => [
        '/api/v1/activity',
        `/api/v1/activity?profile=${name}`,
        '/api/v1/activity?kinds=review&limit=50',
        `/api/v1/activity?profile=${name}&kinds=entry&rating=80`,
      ]);
      const rows: Row[] = [];
      for (const [name, paths] of [
        ['GET /profiles/{u}/library', library],
        ['GET /activity', activity],
      ] as const) {
        const result = await measure({
          url: `${base}${paths[0]}`,
          paths: [...paths],
          connections: 20,
          durationSeconds: Math.max(durationSeconds, 10),
          expectStatus: 200,
        });
        rows.push({ name, result });
        console.log(
          `${result.p95 < 25 ? 'target met' : 'P95 TARGET MISSED'}: ${name} p95 ${result.p95.toFixed(1)} ms (target under 25 ms), ${result.requestsPerSecond.toFixed(0)} req/s, ${result.errors} errors`,
        );
      }
      return { rows, baseline: rows[0].name, subject: rows[1].name };
    } finally {
      await web.stop();
    }
  },
};
