// Sequential timings (ms per call) reduced to the numbers the tables show.
import { percentile, type LoadResult } from './load.js';

export function summariseSamples(samples: number[]): LoadResult {
  const sorted = [...samples].sort((a, b) => a - b);
  const total = samples.reduce((sum, value) => sum + value, 0);
  return {
    requestsPerSecond: (samples.length / total) * 1000,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    requests: samples.length,
    errors: 0,
  };
}
