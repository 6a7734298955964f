// `npm run seed:demo [-- --accounts N --entries M]`: demo people over the demo catalog (loaded first when
// the catalog is empty): N accounts (default 200) with M library entries each (default 50), follows,
// sessions, reviews and their activity, and the demo Arcade game. `--accounts 10000 --entries 100` gives the benchmark's million
// entries. Deterministic; a repeat adds nothing for people who exist already.
import { parseArgs } from 'node:util';
import { loadDemoCatalog } from '../shared/catalog/demo/load-demo-catalog.js';
import { seedDemoPeople } from '../shared/people/demo-people.js';
import { DEMO_GAME_SLUG, seedDemoArcadeGame } from '../shared/arcade/demo-game.js';
import { runWithDatabase } from './with-database.js';

const { values } = parseArgs({
  options: { accounts: { type: 'string', default: '200' }, entries: { type: 'string', default: '50' } },
});
const accounts = Number(values.accounts);
const entries = Number(values.entries);
if (!Number.isInteger(accounts) || accounts < 1 || !Number.isInteger(entries) || entries < 1 || entries > 1000) {
  console.error('Usage: npm run seed:demo [-- --accounts N (1 or more) --entries M (1 to 1000)]');
  process.exit(1);
}

await runWithDatabase(async (knex) => {
  const started = Date.now();
  if (Number((await knex('games').count<{ n: number }[]>('* as n'))[0].n) === 0) {
    console.log('... loading the demo catalog first');
    await loadDemoCatalog(knex);
  }
  const done = await seedDemoPeople(knex, { accounts, entriesPerAccount: entries });
  if (await seedDemoArcadeGame(knex)) console.log(`demo Arcade game: ${DEMO_GAME_SLUG}`);
  console.log(
    `demo people: ${done.accounts} account(s), ${done.entries} library entries, ${done.follows} follows, ` +
      `${done.activity} activity items, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
});
