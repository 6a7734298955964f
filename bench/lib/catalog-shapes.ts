// Times kept per shape of the catalog mix (bench/lib/catalog-mix.ts): a table of them against a p95 target,
// and the generated mix driven end to end with each answer's time kept under its kind and text shape.
import autocannon from 'autocannon';
import { catalogQuery, type CatalogQuery, type CatalogVocabulary } from './catalog-mix.js';
import { loadResult, percentile, type LoadResult } from './load.js';
import { printCells } from './table.js';

/** A row of a per-shape table: the shape's times (ms) and its target on p95. */
export interface ShapeTimes {
  name: string;
  samples: number[];
  errors?: number;
}

/**
 * Prints times per shape: p50, p95, p99 and the slowest, with a column saying whether p95 is under
 * `p95Limit` (met, or MISSED as the scenarios' target lines say it); with `seconds`, each shape's requests
 * and rate within the run. Returns the shapes that missed.
 */
export function printShapeTable(title: string, shapes: ShapeTimes[], p95Limit: number, seconds?: number): string[] {
  const target = `p95 under ${p95Limit} ms`;
  const header = ['shape', 'requests', ...(seconds ? ['req/s'] : []), 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'];
  header.push(...(seconds ? ['errors'] : []), target);
  const missed: string[] = [];
  const lines = shapes.map(({ name, samples, errors = 0 }) => {
    const sorted = [...samples].sort((a, b) => a - b);
    const p95 = percentile(sorted, 95);
    const met = sorted.length > 0 && p95 < p95Limit;
    if (!met) missed.push(`${name} (p95 ${p95.toFixed(1)} ms)`);
    return [
      name,
      String(sorted.length),
      ...(seconds ? [(sorted.length / seconds).toFixed(0)] : []),
      percentile(sorted, 50).toFixed(2),
      p95.toFixed(2),
      percentile(sorted, 99).toFixed(2),
      (sorted.at(-1) ?? 0).toFixed(2),
      ...(seconds ? [String(errors)] : []),
      met ? 'met' : 'MISSED',
    ];
  });
  printCells(title, header, lines);
  return missed;
}

/** autocannon's context of one request of a connection (one in flight a connection: pipelining 1). */
interface MixContext {
  made?: CatalogQuery;
  sentAt?: number;
}

/**
 * The generated mix end to end, driven as measure (bench/lib/load.ts) drives a generated load, with each
 * answer's time also kept under its query's kind and text shape. autocannon gives each request of a
 * connection a context of its own, handed to the request's setup (which makes the query and notes the
 * time) and to its answer (which times it): the time from the query made to its answer read, as
 * autocannon's own (taken from the request's write) within a few microseconds.
 */
export async function measureMix(
  url: string,
  vocabulary: CatalogVocabulary,
  connections: number,
  durationSeconds: number,
): Promise<{ result: LoadResult; byShape: Map<string, ShapeTimes>; seconds: number }> {
  const byShape = new Map<string, ShapeTimes>();
  const keep = (name: string, ms: number, failed: boolean) => {
    let shape = byShape.get(name);
    if (!shape) byShape.set(name, (shape = { name, samples: [], errors: 0 }));
    shape.samples.push(ms);
    if (failed) shape.errors! += 1;
  };
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let unexpected = 0;
  const request = {
    method: 'GET',
    setupRequest: (base: Record<string, unknown>, context?: MixContext) => {
      const made = catalogQuery(vocabulary);
      if (context) Object.assign(context, { made, sentAt: performance.now() });
      return { ...base, method: 'GET', path: `/api/v1/games?${made.query}` };
    },
    onResponse: (status: number, _body: string, context?: MixContext) => {
      if (!context?.made || context.sentAt === undefined) return;
      const ms = performance.now() - context.sentAt;
      const failed = status !== 200;
      latencies.push(ms);
      if (failed) {
        unexpected += 1;
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
      keep(context.made.shape, ms, failed);
      if (context.made.textShape) keep(`text: ${context.made.textShape}`, ms, failed);
    },
  };
  const started = process.hrtime.bigint();
  const result = await autocannon({ url, connections, duration: durationSeconds, requests: [request] });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    result: loadResult(latencies, seconds, result.errors + result.timeouts + unexpected, statuses),
    byShape,
    seconds,
  };
}
