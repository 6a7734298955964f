// What recording a person's history costs the read it follows (DECISIONS: History): GET /games/{slug} with
// a session, 20 clients, each request a random slug of GAMES games and a random person of 20, against one
// web process; once for people with `record_history` false (nothing written: the baseline) and once for
// people with it true, whose every read upserts a view after the answer. The recording people start with
// a full history of 500 views, so most reads add a row past the 500 that the daily purge removes.
// No rate target (the brief sets none): the run prints both rates, both p95s and their ratio. After the
// run, no more than the requests in flight may be written after the load stops (views are written after
// each answer: a backlog would be work the rate does not show), and the purge's part for views (timed)
// must leave each recording person exactly 500; either failing fails the run.
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { Account } from '../../shared/accounts/account.js';
import { startSession } from '../../shared/auth/sessions.js';
import { createKnex } from '../../shared/platform/db/knex.js';
import { HISTORY_CAP } from '../../shared/history/history-rules.js';
import { purgeViews } from '../../shared/history/history.js';
import { compareServers } from '../lib/compare.js';
import { startApiServer } from '../lib/api-server.js';
import { pick } from '../lib/random.js';
import type { Scenario } from '../scenario.js';

const ORIGIN = 'http://localhost:3000';
const GAMES = Number(process.env.BENCH_HISTORY_GAMES ?? 20000);
const PEOPLE = 20;
const CONNECTIONS = 20;
const OFF = 'record_history false';
const ON = 'record_history true';

/** GAMES catalog games, slugs `h-<n>`, inserted in batches. */
async function seedGames(knex: Knex): Promise<{ ids: number[]; slugs: string[] }> {
  const ids: number[] = [];
  const slugs: string[] = [];
  for (let start = 0; start < GAMES; start += 5000) {
    const batch = Array.from({ length: Math.min(5000, GAMES - start) }, (_, i) => ({
      slug: `h-${start + i}`,
      name: `History game ${start + i}`,
    }));
    const rows: Array<{ id: number; slug: string }> = await knex('games').insert(batch).returning(['id', 'slug']);
    for (const row of rows) {
      ids.push(row.id);
      slugs.push(row.slug);
    }
  }
  await knex.raw('ANALYZE games');
  return { ids, slugs };
}

/** PEOPLE signed-in people (session cookies) with `record_history` as given; recording ones start full. */
async function seedPeople(
  knex: Knex,
  record: boolean,
  gameIds: number[],
): Promise<{ ids: string[]; cookies: string[] }> {
  const ids: string[] = [];
  const cookies: string[] = [];
  for (let i = 0; i < PEOPLE; i += 1) {
    const account = await Account.query(knex).insertAndFetch({
      email: `bench-history-${randomBytes(4).toString('hex')}@example.test`,
      record_history: record,
    });
    const { token } = await startSession(knex, account, { userAgent: 'bench', ip: null });
    ids.push(account.id);
    cookies.push(`sid=${token}`);
    if (!record) continue;
    const start = Date.now() - 86_400_000;
    const viewed = new Set<number>();
    while (viewed.size < HISTORY_CAP) viewed.add(pick(gameIds));
    await knex('view_history').insert(
      [...viewed].map((gameId, n) => ({
        account_id: account.id,
        game_id: gameId,
        viewed_at: new Date(start + n * 1000),
      })),
    );
  }
  return { ids, cookies };
}

export const history: Scenario = {
  description: `GET /games/{slug} with a session over ${GAMES} slugs: record_history true vs false`,
  target: 0,
  setup: `${CONNECTIONS} connections, ${PEOPLE} people per side, median of the interleaved rounds`,
  async run({ database, durationSeconds, rounds }) {
    const knex = createKnex(database.url, 2);
    try {
      const games = await seedGames(knex);
      const off = await seedPeople(knex, false, games.ids);
      const on = await seedPeople(knex, true, games.ids);
      await knex.raw('VACUUM ANALYZE view_history');
      const server = await startApiServer(database.url, { PUBLIC_URL: ORIGIN });
      try {
        const load = (name: typeof OFF | typeof ON, cookies: string[]) => ({
          name,
          load: {
            url: `http://127.0.0.1:${server.port}/api/v1/games/${games.slugs[0]}`,
            connections: CONNECTIONS,
            durationSeconds,
            headers: { origin: ORIGIN },
            expectStatus: 200,
            generate: () => ({
              method: 'GET',
              path: `/api/v1/games/${pick(games.slugs)}`,
              headers: { cookie: pick(cookies) },
            }),
          },
        });
        // The recording side runs last in every round, so its last views are the run's last.
        const rows = await compareServers([load(OFF, off.cookies), load(ON, on.cookies)], rounds);
        return { rows, baseline: OFF, subject: ON, problems: await check(knex, on.ids, off.ids) };
      } finally {
        await server.stop();
      }
    } finally {
      await knex.destroy();
    }
  },
};

/** No backlog was left; the purge trims each recording person to exactly the cap; nobody else recorded. */
async function check(knex: Knex, onIds: string[], offIds: string[]): Promise<string[]> {
  const problems: string[] = [];
  const [{ stopped }] = (await knex.raw<{ rows: Array<{ stopped: Date }> }>('SELECT now() AS stopped')).rows;
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const late = Number((await knex('view_history').where('viewed_at', '>', stopped).count({ n: '*' }))[0].n);
  console.log(`history: ${late} views written after the load stopped (at most ${CONNECTIONS} were in flight)`);
  if (late > CONNECTIONS) problems.push(`${late} views were still being written after the load stopped`);
  const held = Number((await knex('view_history').count({ n: '*' }))[0].n);
  const started = performance.now();
  const purged = await purgeViews(knex);
  console.log(
    `history: ${held} rows after the run; the purge's part for views removed ${purged} in ${(performance.now() - started).toFixed(0)} ms`,
  );
  const counts: Array<{ account_id: string; n: number }> = await knex('view_history')
    .whereIn('account_id', [...onIds, ...offIds])
    .groupBy('account_id')
    .select('account_id', knex.raw('count(*)::int AS n'));
  const wrong = counts.filter((row) => !onIds.includes(row.account_id) || row.n !== HISTORY_CAP);
  if (wrong.length > 0 || counts.length !== onIds.length) {
    problems.push(`histories off the cap of ${HISTORY_CAP} after the purge: ${JSON.stringify(wrong)}`);
  }
  return problems;
}
