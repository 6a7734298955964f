// `npm run seed:catalog [-- --games N]`: loads the demo catalog (the real titles of gametime-db as they are;
// past them, made-up follow-ups up to N, e.g. 300000 for IGDB's size in benchmarks). Runs against
// DATABASE_URL or the embedded PostgreSQL of the one-machine mode, as `npm run op` does; safe to repeat;
// exits non-zero on failure.
import { loadDemoCatalog } from '../db/seeds/catalog/load-demo-catalog.js';
import { runWithDatabase } from '../shared/platform/db/with-database.js';

const USAGE = 'Usage: npm run seed:catalog [-- --games N]   (default: the real titles and 10,000 synthetic follow-ups)';

function parseArgs(args: string[]): { games?: number } {
  const out: { games?: number } = {};
  for (let i = 0; i < args.length; i += 1) {
    const [flag, inline] = args[i].split('=', 2);
    if (flag !== '--games') throw new Error(`unknown argument "${args[i]}"`);
    const value = inline ?? args[(i += 1)];
    const games = Number(value);
    if (!/^\d+$/.test(value ?? '') || !Number.isSafeInteger(games)) throw new Error('--games takes a whole number');
    out.games = games;
  }
  return out;
}

const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
let options: { games?: number };
try {
  options = parseArgs(argv);
} catch (error) {
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(1);
}

await runWithDatabase(async (knex) => {
  const started = Date.now();
  let reported = 0;
  const done = await loadDemoCatalog(knex, {
    games: options.games,
    onProgress(progress) {
      // A line every 10 % (and the last), not one per batch.
      if (progress.games < progress.total && progress.games - reported < progress.total / 10) return;
      reported = progress.games;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`... ${progress.games}/${progress.total} games (${progress.inserted} new), ${seconds} s`);
    },
  });
  console.log(
    `demo catalog: ${done.games} game(s) from ${done.titles} real title(s), ${done.inserted} new, ` +
      `${done.facets} facet row(s), in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
});
