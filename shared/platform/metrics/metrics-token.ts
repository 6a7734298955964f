// The scraper's bearer token (METRICS_TOKEN), compared in constant time, for the web's `GET /metrics` and
// each worker's metrics port alike.
import { timingSafeEqual } from 'node:crypto';

/** Whether an Authorization header carries exactly `token` as its bearer token. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
