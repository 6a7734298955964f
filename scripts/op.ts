// `npm run op -- <command>`: operator commands. Each runs against DATABASE_URL, or against the embedded
// PostgreSQL of the one-machine mode (the running one when `npm start` is up), and exits non-zero on
// failure. `npm run op -- --help` lists them.
import { recomputeCatalogStats } from '../shared/catalog/catalog-stats.js';
import { importIgdbFile } from '../shared/catalog/igdb-import.js';
import { checkConsistency, RULE_COUNT } from '../shared/consistency/check.js';
import { cleanMediaNow } from '../shared/media/media-cleanup.js';
import { purgeRetention } from '../shared/retention/purge.js';
import { isRole, ROLES, setRole } from '../shared/moderation/staff-roles.js';
import { ARCADE_COMMANDS, type OpCommand } from './op-arcade.js';
import { KEY_COMMANDS } from './op-keys.js';
import { MINERAL_COMMANDS } from './op-minerals.js';
import { DEMO_DEFAULTS, demoCounts, seedDemoData } from './demo-data.js';
import { runWithDatabase } from '../shared/platform/db/with-database.js';
import { createMediaStorage } from '../shared/platform/storage/create-media-storage.js';

type Command = OpCommand;

const COMMANDS: Record<string, Command> = {
  ...ARCADE_COMMANDS,
  ...KEY_COMMANDS,
  ...MINERAL_COMMANDS,
  'catalog import': {
    summary: 'import upstream catalog data (IGDB shape, JSON lines; see docs/api-notes.md); safe to repeat',
    args: 'FILE',
    async run(knex, _config, [file]) {
      if (!file) throw new Error('name the file: npm run op -- catalog import FILE');
      const started = Date.now();
      const done = await importIgdbFile(knex, file, (progress) =>
        console.log(`... ${progress.facets} related entities, ${progress.games} games`),
      );
      console.log(
        `imported ${done.games} game(s) and ${done.facets} related entities, skipped ${done.skipped}, ` +
          `in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    },
  },
  'catalog stats': {
    summary: 'recompute per-game counts, ratings, popularity and trending now (as the 5-minute job)',
    async run(knex) {
      const report = await recomputeCatalogStats(knex);
      console.log(`recomputed ${report.games} game(s) with activity, ${report.changed} changed`);
    },
  },
  'media cleanup': {
    summary:
      'remove layout images no layout named for 7 days, abandoned uploads, orphaned files, and temporary files of dead writes untouched for an hour (as the daily job)',
    async run(knex, config) {
      const report = await cleanMediaNow(knex, createMediaStorage(config));
      console.log(
        `removed ${report.unnamed_layout_images} unnamed layout image(s), ${report.abandoned_uploads} abandoned ` +
          `upload(s), ${report.orphaned_objects} orphaned file(s), ${report.stale_temporary_files} stale ` +
          `temporary file(s)`,
      );
    },
  },
  'retention purge': {
    summary:
      'delete removed games after 180 days, expired aliases and development URLs, retired keys, ended limit windows, expired idempotency keys, data events past 30 days, old uses of daily caps, notifications past 90 days (as the daily job)',
    async run(knex, config) {
      const report = await purgeRetention(knex, createMediaStorage(config));
      console.log(
        `removed ${report.removed_games} game(s) past their evidence time with ${report.game_images} image(s), ` +
          `${report.expired_aliases} expired alias(es), ${report.expired_overrides} expired development URL(s), ` +
          `${report.retired_keys} retired key(s), ${report.expired_limits} ended limit window(s), ` +
          `${report.expired_idempotency_keys} expired idempotency key(s), ` +
          `${report.expired_data_events} data event(s) past 30 days, ` +
          `${report.expired_app_events} event(s) for integrations past 30 days, ` +
          `${report.expired_rolling_uses} use(s) of daily caps past their window, ` +
          `${report.expired_notifications} notification(s) past 90 days`,
      );
    },
  },
  'demo seed': {
    summary: `add demo people (default ${DEMO_DEFAULTS.accounts}, with ${DEMO_DEFAULTS.entries} library entries each) and the demo Arcade game; a repeat adds nothing`,
    args: '[ACCOUNTS [ENTRIES]]',
    async run(
      knex,
      _config,
      [accounts = String(DEMO_DEFAULTS.accounts), entries = String(DEMO_DEFAULTS.entries), ...rest],
    ) {
      const counts = demoCounts(accounts, entries);
      if (!counts || rest.length > 0) {
        throw new Error('give whole numbers: npm run op -- demo seed [ACCOUNTS (1 or more) [ENTRIES (1 to 1000)]]');
      }
      await seedDemoData(knex, counts);
    },
  },
  check: {
    summary:
      'check rules that span rows (names, claims, live releases, key set, follows and blocks, feed visibility, mineral balances); read only',
    async run(knex) {
      const findings = await checkConsistency(knex);
      for (const finding of findings) {
        console.log(`BROKEN (${finding.count}): ${finding.rule}; e.g. ${finding.examples.join(', ')}`);
      }
      if (findings.length > 0) throw new Error(`${findings.length} of ${RULE_COUNT} rules broken`);
      console.log(`all ${RULE_COUNT} rules hold`);
    },
  },
  staff: {
    summary: `give an account a role (${ROLES.join(', ')}); moderators and admins reach /moderation`,
    args: 'USERNAME ROLE',
    async run(knex, _config, args) {
      const [username, role] = args;
      if (args.length !== 2 || !isRole(role)) {
        throw new Error(`name the account and a role: npm run op -- staff USERNAME ${ROLES.join('|')}`);
      }
      const changed = await setRole(knex, username, role);
      console.log(`${changed.username}: ${changed.previous} -> ${changed.role}`);
    },
  },
};

function help(): void {
  console.log('Usage: npm run op -- <command>\n\nCommands:');
  for (const [name, command] of Object.entries(COMMANDS)) {
    console.log(`  ${`${name} ${command.args ?? ''}`.padEnd(22)} ${command.summary}`);
  }
}

const words = process.argv.slice(2);
if (words.length === 0 || words.includes('--help') || words.includes('-h')) {
  help();
  process.exit(words.length === 0 ? 1 : 0);
}
// A command is its first two words (`media cleanup`), or its first word alone (`staff`); what follows
// are its arguments.
const length = COMMANDS[words.slice(0, 2).join(' ')] ? 2 : 1;
const command = COMMANDS[words.slice(0, length).join(' ')];
const args = words.slice(length);
if (!command || (!command.args && args.length > 0)) {
  console.error(`Unknown command "${words.join(' ')}".`);
  help();
  process.exit(1);
}

await runWithDatabase((knex, config) => command.run(knex, config, args));
