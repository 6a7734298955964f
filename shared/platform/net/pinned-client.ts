// An undici client that can only ever connect to the address the guard checked. undici would otherwise
// resolve the URL's host itself at connect time (a second lookup an attacker's DNS can answer
// differently); here the connector swaps the host for the checked address while TLS still verifies the
// certificate against the host name, sent as SNI.
import { createSecureContext, type SecureContext } from 'node:tls';
import { buildConnector, Client, Pool } from 'undici';
import type { CheckedHost } from './checked-host.js';
import { trustedAuthorities } from './test-door.js';

// Parsing a list of authorities into a TLS context takes tens of milliseconds (Node's own default context
// is built once): with the test door's extra CA, the context is built once per list and reused.
const contexts = new WeakMap<string[], SecureContext>();

function secureContextFor(ca: string[]): SecureContext {
  let context = contexts.get(ca);
  if (!context) contexts.set(ca, (context = createSecureContext({ ca })));
  return context;
}

/** A connector that dials only the checked address, verifying the certificate against the checked name. */
function pinnedConnector(checked: CheckedHost, timeoutMs: number, sessions: number): buildConnector.connector {
  const ca = trustedAuthorities();
  const connectTo = buildConnector({
    timeout: timeoutMs,
    rejectUnauthorized: true,
    maxCachedSessions: sessions,
    ...(ca ? { secureContext: secureContextFor(ca) } : {}),
  } as buildConnector.BuildOptions);
  return (options, callback) => {
    connectTo(
      {
        ...options,
        hostname: checked.address,
        port: checked.port === null ? options.port : String(checked.port),
        // An IP literal has no name to send; undici then sends none and checks the certificate's IP.
        servername: checked.literal ? undefined : checked.hostname,
      },
      callback,
    );
  };
}

/** One connection for one request: URL checks verify a fresh handshake each time (no session reuse). */
export function pinnedClient(origin: string, checked: CheckedHost, timeoutMs: number): Client {
  return new Client(origin, {
    connect: pinnedConnector(checked, timeoutMs, 0),
    // The guard's own abort signal enforces the total time; these are backstops for a stuck socket.
    headersTimeout: timeoutMs + 1000,
    bodyTimeout: timeoutMs + 1000,
    pipelining: 0,
  });
}

/** Connections kept open to one receiver at most; more requests to it wait their turn in its pool. */
export const CONNECTIONS_PER_RECEIVER = 8;
/** Receivers whose pools are kept; the least recently used one is closed beyond this. */
const KEPT_POOLS = 100;
const pools = new Map<string, Pool>();

/**
 * A kept pool of connections to one receiver, for senders of many requests to few servers (data events):
 * keyed by the origin and the address the guard checked for this request, so a host whose DNS answer
 * changes gets connections to its new (checked) address, and the old pool idles out. At most
 * CONNECTIONS_PER_RECEIVER requests to one receiver run at once, so a slow receiver holds its own
 * connections, not the sender's. Idle connections close after 4 s (or sooner, as the receiver says).
 */
export function pooledClient(origin: string, checked: CheckedHost, timeoutMs: number): Pool {
  // The time limit is part of the key: a pool's connections carry the limits it was made with.
  const key = `${origin} ${checked.address} ${checked.port ?? ''} ${timeoutMs}`;
  let pool = pools.get(key);
  if (pool) {
    // Most recently used last, so the first is the one to close.
    pools.delete(key);
  } else {
    pool = new Pool(origin, {
      connect: pinnedConnector(checked, timeoutMs, CONNECTIONS_PER_RECEIVER),
      connections: CONNECTIONS_PER_RECEIVER,
      keepAliveTimeout: 4000,
      keepAliveMaxTimeout: 30_000,
      headersTimeout: timeoutMs + 1000,
      bodyTimeout: timeoutMs + 1000,
      pipelining: 1,
    });
    if (pools.size >= KEPT_POOLS) {
      const [oldest, stale] = pools.entries().next().value as [string, Pool];
      pools.delete(oldest);
      void stale.close().catch(() => undefined);
    }
  }
  pools.set(key, pool);
  return pool;
}

/** Closes every kept pool (a worker shutting down; tests). */
export async function closePooledClients(): Promise<void> {
  const open = [...pools.values()];
  pools.clear();
  await Promise.all(open.map((pool) => pool.close().catch(() => undefined)));
}
