// `npm run bench -- <scenario> [--connections N] [--duration S]`: runs a scenario against real processes
// on loopback and prints a table with the baseline measured in the same run.
import { parseArgs } from 'node:util';
import { benchDatabase } from './lib/database.js';
import { pinLoadGenerator } from './lib/processes.js';
import { printTable } from './lib/table.js';
import { scenarios } from './scenarios/index.js';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    connections: { type: 'string', default: '50' },
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
  },
});

const names = positionals.length > 0 ? positionals : [];
if (names.length === 0 || names.some((name) => !scenarios[name])) {
  console.error(`usage: npm run bench -- <scenario> [--connections N] [--duration S] [--rounds N]`);
  console.error(
    `scenarios:\n${Object.entries(scenarios)
      .map(([name, s]) => `  ${name}: ${s.description}`)
      .join('\n')}`,
  );
  process.exit(2);
}

// The database starts before pinning, so PostgreSQL keeps every core rather than the load generator's.
const database = await benchDatabase();
const pinned = pinLoadGenerator();
let failed = false;
try {
  for (const name of names) {
    const scenario = scenarios[name];
    const {
      rows,
      baseline,
      subject,
      problems = [],
      summary,
    } = await scenario.run({
      database,
      connections: Number(values.connections),
      durationSeconds: Number(values.duration),
      rounds: Number(values.rounds),
    });
    const setup = `${
      scenario.setup ??
      `${values.connections} connections, median of ${values.rounds} interleaved ${values.duration} s rounds`
    }, ${pinned ? 'servers pinned to core 0, load generator on the others' : 'unpinned'}`;
    printTable(`${name}: ${scenario.description}\n(${setup})`, rows, baseline);
    const ratio =
      rows.find((r) => r.name === subject)!.result.requestsPerSecond /
      rows.find((r) => r.name === baseline)!.result.requestsPerSecond;
    const p99 = rows.find((r) => r.name === subject)!.result.p99;
    const p99Met = scenario.p99TargetMs === undefined || p99 < scenario.p99TargetMs;
    if (scenario.p99TargetMs !== undefined) {
      console.log(
        `${p99Met ? 'p99 target met' : 'P99 TARGET MISSED'}: ${subject} p99 ${p99.toFixed(1)} ms (target under ${scenario.p99TargetMs} ms)`,
      );
    }
    const added = rows.find((r) => r.name === subject)!.result.p50 - rows.find((r) => r.name === baseline)!.result.p50;
    const addedMet = scenario.maxAddedMs === undefined || added <= scenario.maxAddedMs;
    if (scenario.maxAddedMs !== undefined) {
      console.log(
        `${addedMet ? 'added-time target met' : 'ADDED-TIME TARGET MISSED'}: ${subject} adds ${added.toFixed(3)} ms at p50 (target at most ${scenario.maxAddedMs} ms)`,
      );
    }
    const p50 = rows.find((r) => r.name === subject)!.result.p50;
    const p50Met = scenario.p50TargetMs === undefined || p50 < scenario.p50TargetMs;
    if (scenario.p50TargetMs !== undefined) {
      console.log(
        `${p50Met ? 'median target met' : 'MEDIAN TARGET MISSED'}: ${subject} median ${p50.toFixed(3)} ms (target under ${scenario.p50TargetMs} ms)`,
      );
    }
    const p95Limit = scenario.p95TargetMs;
    const p95Missed = p95Limit === undefined ? [] : rows.filter((row) => row.result.p95 >= p95Limit);
    if (p95Limit !== undefined) {
      for (const row of rows) {
        console.log(
          `${row.result.p95 < p95Limit ? 'p95 target met' : 'P95 TARGET MISSED'}: ${row.name} p95 ${row.result.p95.toFixed(1)} ms (target under ${p95Limit} ms)`,
        );
      }
    }
    for (const problem of problems) console.log(`PROBLEM: ${problem}`);
    const met = ratio >= scenario.target && addedMet && p50Met && p95Missed.length === 0 && problems.length === 0;
    failed ||= !met || !p99Met;
    const verdict = met ? 'target met' : 'TARGET MISSED';
    // A scenario without a ratio of its own (target 0: images, data-events) is judged by its problems alone.
    console.log(
      scenario.target > 0
        ? `${verdict}: ${subject} at ${ratio.toFixed(2)}x of ${baseline} (target ${scenario.target}x)`
        : `${verdict}${problems.length > 0 ? `: ${problems.length} problem${problems.length > 1 ? 's' : ''} above` : ''}`,
    );
    if (summary) console.log(summary);
  }
} finally {
  await database.drop();
}
process.exit(failed ? 1 : 0);
