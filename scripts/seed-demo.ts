// `npm run seed:demo [-- --accounts N --entries M]`: demo people over the demo catalog (loaded first when
// the catalog is empty): N accounts (default 200) with M library entries each (default 50), follows,
// sessions, reviews and their activity, and the demo Arcade game. `--accounts 10000 --entries 100` gives
// the benchmark's million entries. Deterministic; a repeat adds nothing for people who exist already.
// `npm run op -- demo seed [N M]` does the same.
import { parseArgs } from 'node:util';
import { DEMO_DEFAULTS, demoCounts, seedDemoData } from './demo-data.js';
import { runWithDatabase } from '../shared/platform/db/with-database.js';

const { values } = parseArgs({
  options: {
    accounts: { type: 'string', default: String(DEMO_DEFAULTS.accounts) },
    entries: { type: 'string', default: String(DEMO_DEFAULTS.entries) },
  },
});
const counts = demoCounts(values.accounts, values.entries);
if (!counts) {
  console.error('Usage: npm run seed:demo [-- --accounts N (1 or more) --entries M (1 to 1000)]');
  process.exit(1);
}

await runWithDatabase((knex) => seedDemoData(knex, counts));
