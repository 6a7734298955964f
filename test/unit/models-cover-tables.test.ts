// One data layer: every table that domain code reads or writes has an Objection model (a class extending
// BaseModel, in its domain's models.ts or beside the code it serves), found here by reading the code, not
// from a list. The tables that stay without one are listed with their reason: the migration tool's own, and
// the counters that only triggers keep. The test fails when a new table has no model and is not listed.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import type { BaseModel } from '../../shared/platform/db/base-model.js';
import { db } from '../../shared/platform/db/knex.js';
import { PROJECT_ROOT } from '../../shared/platform/project-root.js';

/** Tables that never get a model, and why. */
const WITHOUT_MODEL: Record<string, string> = {
  knex_migrations: "the migration tool's own",
  knex_migrations_lock: "the migration tool's own",
  library_counts: "a counter its triggers keep (the library's size, the creators' lock)",
  notification_sequences: 'a counter its trigger keeps (each account’s notification numbers)',
  mineral_balances: 'a sum its trigger keeps from mineral_ledger',
  catalog_title_words: 'counts its triggers keep from the games’ titles',
  catalog_state: 'the catalog’s version, moved by its triggers',
};

/** The source files under `dir` (recursively). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Every model class the code defines: its table, and where it is. */
async function modelTables(): Promise<Map<string, string>> {
  const tables = new Map<string, string>();
  for (const file of sourceFiles(path.join(PROJECT_ROOT, 'shared'))) {
    if (!/extends BaseModel\b/.test(readFileSync(file, 'utf8'))) continue;
    const exported = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const value of Object.values(exported)) {
      // A class with Objection's statics (the module may load apart from this file's BaseModel: compared
      // by shape, not identity).
      const model = value as Partial<typeof BaseModel>;
      if (typeof value !== 'function' || typeof model.tableName !== 'string' || typeof model.query !== 'function') {
        continue;
      }
      const table = model.tableName;
      expect(tables.get(table), `two models of ${table}`).to.equal(undefined);
      tables.set(table, path.relative(PROJECT_ROOT, file));
    }
  }
  return tables;
}

describe('models cover the tables', () => {
  it('has a model for every table but those listed, and each model a table', async () => {
    const tables: string[] = await db()('information_schema.tables')
      .where({ table_schema: 'public', table_type: 'BASE TABLE' })
      .orderBy('table_name')
      .pluck('table_name');
    const models = await modelTables();
    expect(models.size, 'models found in shared/').to.be.above(0);
    for (const [table, file] of models) expect(tables, `the table of a model in ${file}`).to.include(table);
    for (const table of Object.keys(WITHOUT_MODEL)) expect(tables, 'a table listed without a model').to.include(table);

    const missing = tables.filter((table) => !models.has(table) && !(table in WITHOUT_MODEL));
    expect(missing, 'tables with no model: give them one, or list them with a reason').to.deep.equal([]);
  });
});
