// The query plans a benchmark relies on, read as the web process gets them: the statement prepared and
// run with a generic plan (shared/platform/db/prepared.ts), then EXPLAIN ANALYZE of its execution. A sequential
// scan of a big table in any of them is reported, and fails the scenario.
import type { Knex } from 'knex';

export interface PlanCheck {
  name: string;
  text: string;
  values: unknown[];
}

export interface PlanReport {
  name: string;
  /** Each scan node as "Index Only Scan on activity_items (activity_items_created_at_id_index)". */
  scans: string[];
  /** The big tables read by a sequential scan. */
  seqScans: string[];
  executionMs: number;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** A value as SQL text for EXECUTE's arguments (the statements here bind text, numbers, booleans, arrays). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `ARRAY[${value.map(literal).join(', ')}]`;
  const text = value instanceof Date ? value.toISOString() : String(value);
  return `'${text.replace(/'/g, "''")}'`;
}

function scansOf(node: PlanNode, into: PlanNode[] = []): PlanNode[] {
  if (node['Node Type'].endsWith('Scan') && node['Relation Name']) into.push(node);
  for (const child of node.Plans ?? []) scansOf(child, into);
  return into;
}

/** Tables with at least `rows` rows (by the statistics of the last ANALYZE). */
export async function bigTables(knex: Knex, rows: number): Promise<Set<string>> {
  const { rows: found } = await knex.raw<{ rows: Array<{ relname: string }> }>(
    `SELECT relname FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace AND reltuples >= ?`,
    [rows],
  );
  return new Set(found.map((row) => row.relname));
}

export async function checkPlans(knex: Knex, checks: PlanCheck[], big: Set<string>): Promise<PlanReport[]> {
  const reports: PlanReport[] = [];
  await knex.transaction(async (trx) => {
    await trx.raw('SET LOCAL plan_cache_mode = force_generic_plan');
    await trx.raw('SET LOCAL jit = off');
    for (const [i, check] of checks.entries()) {
      await trx.raw(`PREPARE bench_plan_${i} AS ${check.text}`);
      // Twice: the first execution reads what the measured runs find cached.
      const explain = `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE bench_plan_${i}(${check.values.map(literal).join(', ')})`;
      await trx.raw(explain);
      const { rows } = await trx.raw<{
        rows: Array<{ 'QUERY PLAN': Array<{ Plan: PlanNode; 'Execution Time': number }> }>;
      }>(explain);
      const [{ Plan: plan, 'Execution Time': executionMs }] = rows[0]['QUERY PLAN'];
      const scans = scansOf(plan);
      reports.push({
        name: check.name,
        scans: scans.map(
          (scan) =>
            `${scan['Node Type']} on ${scan['Relation Name']}${scan['Index Name'] ? ` (${scan['Index Name']})` : ''}`,
        ),
        seqScans: scans
          .filter((scan) => scan['Node Type'] === 'Seq Scan' && big.has(scan['Relation Name']!))
          .map((scan) => scan['Relation Name']!),
        executionMs,
      });
    }
  });
  return reports;
}

/** The reports as lines for the console: each statement, its time, and the scans of its plan. */
export function printPlans(title: string, reports: PlanReport[]): void {
  console.log(`\n${title}`);
  for (const report of reports) {
    const verdict = report.seqScans.length
      ? `SEQUENTIAL SCAN of ${report.seqScans.join(', ')}`
      : 'no sequential scan of a big table';
    console.log(`- ${report.name}: ${report.executionMs.toFixed(2)} ms, ${verdict}`);
    for (const scan of [...new Set(report.scans)]) console.log(`    ${scan}`);
  }
}
