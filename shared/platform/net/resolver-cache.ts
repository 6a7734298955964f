// A short memory of DNS answers for the outbound guard's default resolver. Each data event, URL check and
// fetch resolved its host anew through getaddrinfo, which runs on libuv's four threads: a worker sending
// a batch of 250 events to one game server queued 250 lookups of the same name. An answer is kept for a
// short while and shared by the lookups made meanwhile. Checking is unchanged: every kept answer is judged
// again on each use, and the connection goes to the checked address, so a name that starts answering a
// private address is refused as soon as its new answer is read. Failures are not kept.
import { ExpiringMap } from '../expiring-map.js';

/** Every address a host name resolves to (checked-host.ts's Resolver). */
type Resolver = (hostname: string) => Promise<string[]>;

/** How long an answer is reused: well under the usual TTLs of 300 s and more. */
export const RESOLVER_CACHE_MS = 30_000;
/** Names remembered at most; the oldest is forgotten first. */
const MAX_NAMES = 1000;

export function cachingResolver(resolve: Resolver, ttlMs = RESOLVER_CACHE_MS, now = () => Date.now()): Resolver {
  const kept = new ExpiringMap<Promise<string[]>>(ttlMs, MAX_NAMES);
  return (hostname) => {
    const hit = kept.get(hostname, now());
    if (hit) return hit;
    const answers = resolve(hostname);
    kept.set(hostname, answers, now());
    // A failed lookup is asked again next time, not remembered.
    answers.catch(() => {
      if (kept.get(hostname, now()) === answers) kept.delete(hostname);
    });
    return answers;
  };
}
