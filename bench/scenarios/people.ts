// People pages over demo data of 10,000 accounts and a million library entries: GET
// /profiles/{username}/library and GET /activity through the web process at 20 concurrent requests, each
// cycling over many people and filters. Target: p95 under 25 ms for both.
import { loadDemoCatalog } from '../../db/seeds/catalog/load-demo-catalog.js';
import { createKnex } from '../../shared/platform/db/knex.js';
import { seedDemoPeople } from '../../db/seeds/demo-people.js';
import type { Knex } from 'knex';
import { feedStatement, type ActivityFilters } from '../../shared/people/activity.js';
import { personLibraryStatement, type LibraryQuery } from '../../shared/people/library.js';
import { startApiServer } from '../lib/api-server.js';
import { bigTables, checkPlans, printPlans } from '../lib/plans.js';
import { measure } from '../lib/load.js';
import type { Row } from '../lib/table.js';
import type { Scenario } from '../scenario.js';

const ACCOUNTS = Number(process.env.BENCH_PEOPLE_ACCOUNTS ?? 10000);
const ENTRIES = Number(process.env.BENCH_PEOPLE_ENTRIES ?? 100);

const LIBRARY_QUERIES: Array<[string, LibraryQuery]> = [
  ['library', { page: 1, limit: 100, sort: 'updated' }],
  ['library by rating, 50', { page: 1, limit: 50, sort: 'rating' }],
  ['library of a status, with games', { page: 1, limit: 100, sort: 'updated', status: 'COMPLETED', games: 1 }],
];
const FEEDS: Array<[string, ActivityFilters, boolean]> = [
  ['feed', { limit: 30 }, false],
  ["a person's feed", { limit: 30 }, true],
  ['reviews, 50', { kinds: ['review'], limit: 50 }, false],
  ["a person's entries rated 80+", { kinds: ['entry'], rating: 80, limit: 30 }, true],
];

/**
 * The plans of the statements behind the measured requests, for an anonymous reader (the load's) and a
 * signed-in one (whose follows and blocks each item consults): none may scan a big table sequentially.
 */
async function checkPeoplePlans(knex: Knex): Promise<string[]> {
  const big = await bigTables(knex, 10_000);
  const { id: signedIn } = await knex('accounts').where({ username: 'demo_1' }).first('id');
  const checks = [null, signedIn as string].flatMap((reader) => {
    const who = reader ? 'signed in' : 'anonymous';
    return [
      ...LIBRARY_QUERIES.map(([name, query]) => ({
        name: `${name} (${who})`,
        ...personLibraryStatement('demo_7919', reader, query, query.limit, 0),
      })),
      ...FEEDS.map(([name, filters, person]) => {
        const { text, values } = feedStatement(knex, filters, reader, { personName: person ? 'demo_7919' : undefined });
        return { name: `${name} (${who})`, text, values };
      }),
    ];
  });
  const reports = await checkPlans(knex, checks, big);
  printPlans(
    `query plans (generic, as prepared by the web process; big tables: ${[...big].sort().join(', ')})`,
    reports,
  );
  return reports
    .filter((report) => report.seqScans.length)
    .map((report) => `${report.name} scans ${report.seqScans.join(', ')} sequentially`);
}

/** The feed this benchmark reads for `names` (content.ts reads it again after its writes). */
export const peopleFeedPaths = (names: string[]) =>
  names.flatMap((name) => [
    '/api/v1/activity',
    `/api/v1/activity?profile=${name}`,
    '/api/v1/activity?kinds=review&limit=50',
    `/api/v1/activity?profile=${name}&kinds=entry&rating=80`,
  ]);

export const people: Scenario = {
  description: `/profiles/{u}/library and /activity over ${ACCOUNTS} people with ${ENTRIES} library entries each, 20 clients`,
  target: 0,
  p95TargetMs: 25,
  setup: '20 connections, one 10 s run per route after 3 s unmeasured',
  async run({ database, durationSeconds }) {
    const knex = createKnex(database.url, 4);
    let problems: string[] = [];
    try {
      const started = Date.now();
      await loadDemoCatalog(knex);
      const seeded = await seedDemoPeople(knex, { accounts: ACCOUNTS, entriesPerAccount: ENTRIES });
      await knex.raw('VACUUM ANALYZE');
      console.log(
        `seeded ${seeded.accounts} people, ${seeded.entries} entries, ${seeded.activity} activity items in ` +
          `${((Date.now() - started) / 1000).toFixed(0)} s`,
      );
      problems = await checkPeoplePlans(knex);
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
      const activity = peopleFeedPaths(some);
      const rows: Row[] = [];
      for (const [name, paths] of [
        ['GET /profiles/{u}/library', library],
        ['GET /activity', activity],
      ] as const) {
        const load = { url: `${base}${paths[0]}`, paths: [...paths], connections: 20, expectStatus: 200 };
        // Unmeasured first: the JIT, and each pooled connection preparing its statements.
        await measure({ ...load, durationSeconds: 3 });
        const result = await measure({ ...load, durationSeconds: Math.max(durationSeconds, 10) });
        rows.push({ name, result });
      }
      return { rows, baseline: rows[0].name, subject: rows[1].name, problems };
    } finally {
      await web.stop();
    }
  },
};
