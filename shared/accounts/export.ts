// `GET /account/export`: everything the account wrote, as one JSON document `{ data: {...} }` like every
// other success, written table by table and row by row to a stream, so a large library never sits whole
// in memory.
import { PassThrough, type Readable } from 'node:stream';
import type { Knex } from 'knex';
import type { Logger } from '../platform/logger.js';
import { EXPORTED_TABLES } from './export-registry.js';

/** The columns of the account row itself that the export shows (never the password hash or TOTP secret). */
const ACCOUNT_COLUMNS = [
  'id',
  'email',
  'email_verified_at',
  'username',
  'display_name',
  'role',
  'birth_date',
  'birth_date_confirmed_by',
  'two_factor_enabled_at',
  'username_changed_at',
  'record_history',
  'created_at',
  'updated_at',
];

/**
 * 2: `sessions` holds the play sessions (version 1's `play_sessions`) and `sign_in_sessions` the sign-in
 * sessions (version 1's `sessions`), named as the deletion categories name them.
 */
export const EXPORT_VERSION = 2;

function write(out: PassThrough, text: string): Promise<void> {
  return out.write(text) ? Promise.resolve() : new Promise((resolve) => out.once('drain', () => resolve()));
}

async function fill(knex: Knex, accountId: string, out: PassThrough): Promise<void> {
  const account = await knex('accounts').where({ id: accountId }).first(ACCOUNT_COLUMNS);
  await write(
    out,
    `{"data":{"export_version":${EXPORT_VERSION},"exported_at":${JSON.stringify(new Date().toISOString())},"account":${JSON.stringify(account)}`,
  );
  for (const entry of EXPORTED_TABLES) {
    await write(out, `,${JSON.stringify(entry.key)}:[`);
    // knex's stream, by the registry's table name: a table's rows one at a time, where a model's query would
    // hold the whole library in memory.
    const rows = knex(entry.table).where(entry.owner, accountId).orderBy(entry.orderBy).select(entry.columns).stream();
    let first = true;
    for await (const row of rows) {
      await write(out, `${first ? '' : ','}${JSON.stringify(row)}`);
      first = false;
    }
    await write(out, ']');
  }
  await write(out, '}}\n');
}

export function exportAccount(knex: Knex, accountId: string, log: Logger): Readable {
  const out = new PassThrough();
  fill(knex, accountId, out).then(
    () => out.end(),
    (error) => {
      // The status line is gone by now: cut the stream so the client sees an incomplete document, not a valid one.
      log.error({ err: error, account_id: accountId }, 'export failed');
      out.destroy(error as Error);
    },
  );
  return out;
}
