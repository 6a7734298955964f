// Validating a maximal layout document (48000 bytes, 40 blocks, 80 elements), one call at a time.
// Target: median under 2 ms. The default layout is the baseline row, for scale.
import { defaultLayout } from '../../shared/layout/default-layout.js';
import { validateLayout } from '../../shared/layout/layout-validator.js';
import { maximalLayout } from '../../test/helpers/layouts.js';
import { percentile, type LoadResult } from '../lib/load.js';
import type { Scenario } from '../scenario.js';

const CALLS = 3000;

function timeValidation(doc: unknown): LoadResult {
  for (let i = 0; i < 200; i += 1) validateLayout(doc);
  const samples: number[] = [];
  for (let i = 0; i < CALLS; i += 1) {
    const started = performance.now();
    const result = validateLayout(doc);
    samples.push(performance.now() - started);
    if (!result.ok) throw new Error(`the benchmark document is not valid: ${JSON.stringify(result.issues[0])}`);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  const total = samples.reduce((sum, value) => sum + value, 0);
  return {
    requestsPerSecond: (CALLS / total) * 1000,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    requests: CALLS,
    errors: 0,
  };
}

export const layout: Scenario = {
  description: 'validating a maximal layout document (48000 bytes, 40 blocks, 80 elements)',
  target: 0,
  p50TargetMs: 2,
  async run() {
    return {
      rows: [
        { name: 'default layout', result: timeValidation(defaultLayout()) },
        { name: 'maximal layout', result: timeValidation(maximalLayout()) },
      ],
      baseline: 'default layout',
      subject: 'maximal layout',
    };
  },
};
