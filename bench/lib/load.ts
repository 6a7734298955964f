// Drives load with autocannon and reduces it to the numbers the tables show. Latencies are collected
// per response, so any percentile (p95 included, which autocannon's summary lacks) is exact.
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  connections: number;
  durationSeconds: number;
  headers?: Record<string, string>;
  /** Paths to cycle through (each connection goes round them); default: the url's own. */
  paths?: string[];
  /**
   * Each request made anew when it is sent (method, path, body, headers beside `headers`): a mix generated
   * per request, so no cache and no repeated row answers it. Wins over `paths`.
   */
  generate?: () => GeneratedRequest;
  /** Status every answer must have; any other counts as an error. */
  expectStatus: number | number[];
}

export interface GeneratedRequest {
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  requests: number;
  errors: number;
  /** How many answers had each unexpected status. */
  unexpected?: Record<number, number>;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)];
}

export async function measure(options: LoadOptions): Promise<LoadResult> {
  let unexpected = 0;
  const expected = [options.expectStatus].flat();
  const statuses: Record<number, number> = {};
  const latencies: number[] = [];
  const started = process.hrtime.bigint();
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    headers: options.headers,
    requests: options.generate
      ? [
          {
            setupRequest: (request: Record<string, unknown>) => {
              const made = options.generate!();
              const json = made.body === undefined ? {} : { 'content-type': 'application/json' };
              return {
                ...request,
                method: made.method,
                path: made.path,
                body: made.body === undefined ? undefined : JSON.stringify(made.body),
                headers: { ...(request.headers as object), ...json, ...made.headers },
              };
            },
          },
        ]
      : options.paths?.map((path) => ({ method: 'GET', path })),
    setupClient: (client) => {
      client.on('response', (statusCode: number, _bytes: number, responseTime: number) => {
        latencies.push(responseTime);
        if (!expected.includes(statusCode)) {
          unexpected += 1;
          statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
        }
      });
    },
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return loadResult(latencies, seconds, result.errors + result.timeouts + unexpected, statuses);
}

/** A run's rate and percentiles from its answers' times (ms), its length and what went wrong. */
export function loadResult(
  latencies: number[],
  seconds: number,
  errors: number,
  unexpected: Record<number, number>,
): LoadResult {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    requestsPerSecond: sorted.length / seconds,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    requests: sorted.length,
    errors,
    unexpected,
  };
}

/**
 * A short unmeasured load so the servers are warm (JIT, pools) before the measured one: the same requests
 * (its paths, or its generated ones), not only its first URL.
 */
export async function warmUp(options: LoadOptions, seconds = 2): Promise<void> {
  await measure({ ...options, durationSeconds: seconds });
}
