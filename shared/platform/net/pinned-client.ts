// An undici client that can only ever connect to the address the guard checked. undici would otherwise
// resolve the URL's host itself at connect time (a second lookup an attacker's DNS can answer
// differently); here the connector swaps the host for the checked address while TLS still verifies the
// certificate against the host name, sent as SNI.
import type { Readable } from 'node:stream';
import { createSecureContext, type SecureContext } from 'node:tls';
import { buildConnector, Client, type Dispatcher, Pool } from 'undici';
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

/** Connections kept open to one receiver at most; more requests to it wait their turn (KeptReceiver). */
export const CONNECTIONS_PER_RECEIVER = 8;
/** Receivers whose pools are kept; the least recently used one is closed beyond this. */
const KEPT_POOLS = 100;
const receivers = new Map<string, KeptReceiver>();

/**
 * A receiver's kept connections (a pool) and the turns to use them. undici honours a request's abort
 * signal only once the request has a connected socket: a request queued in a pool behind a receiver that
 * never completes its TLS handshake was cut only when a connection attempt of its own timed out, 20 to 30
 * s after its deadline. So requests wait for their turn here, where the wait ends with the caller's
 * signal, and the pool is never given more requests than it has connections. A turn is given back when
 * undici is done with it (the answer's body ended or destroyed, or the request failed), not at the caller's
 * deadline: a connection stuck in its handshake holds its turn until its connect time-out, so a hanging
 * receiver never has more than CONNECTIONS_PER_RECEIVER sockets open.
 */
class KeptReceiver {
  private free = CONNECTIONS_PER_RECEIVER;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly pool: Pool) {}

  /** Sends `options` (its `signal` included) on one of the receiver's connections when one is free. */
  async request(options: Dispatcher.RequestOptions & { signal: AbortSignal }): Promise<Dispatcher.ResponseData> {
    const giveBack = await this.turn(options.signal);
    let response: Dispatcher.ResponseData;
    try {
      response = await this.pool.request(options);
    } catch (error) {
      giveBack();
      throw error;
    }
    const body = response.body as unknown as Readable;
    if (body.destroyed || body.readableEnded) giveBack();
    else body.once('close', giveBack);
    return response;
  }

  private turn(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(abortReason(signal));
    if (this.free > 0) {
      this.free -= 1;
      return Promise.resolve(this.giver());
    }
    return new Promise((resolve, reject) => {
      const take = () => {
        signal.removeEventListener('abort', leave);
        resolve(this.giver());
      };
      const leave = () => {
        const index = this.waiting.indexOf(take);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(abortReason(signal));
      };
      this.waiting.push(take);
      signal.addEventListener('abort', leave, { once: true });
    });
  }

  /** The function that gives a turn back once, to the first waiting request or to the free count. */
  private giver(): () => void {
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    };
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('aborted');
}

/**
 * The kept connections to one receiver, for senders of many requests to few servers (data events):
 * keyed by the origin and the address the guard checked for this request, so a host whose DNS answer
 * changes gets connections to its new (checked) address, and the old pool idles out. At most
 * CONNECTIONS_PER_RECEIVER requests to one receiver run at once, so a slow receiver holds its own
 * connections, not the sender's. Idle connections close after 4 s (or sooner, as the receiver says).
 * `backstopMs` bounds a connection attempt (TCP and TLS) and a silent answer on the pool's own clock: the
 * caller's deadline (guardedFetch) usually ends a request first; this only frees a stuck connection.
 */
export function keptReceiver(origin: string, checked: CheckedHost, backstopMs: number): KeptReceiver {
  // The limits are part of the key: a pool's connections carry the limits it was made with.
  const key = `${origin} ${checked.address} ${checked.port ?? ''} ${backstopMs}`;
  let receiver = receivers.get(key);
  if (receiver) {
    // Most recently used last, so the first is the one to close.
    receivers.delete(key);
  } else {
    receiver = new KeptReceiver(
      new Pool(origin, {
        connect: pinnedConnector(checked, backstopMs, CONNECTIONS_PER_RECEIVER),
        connections: CONNECTIONS_PER_RECEIVER,
        keepAliveTimeout: 4000,
        keepAliveMaxTimeout: 30_000,
        headersTimeout: backstopMs + 1000,
        bodyTimeout: backstopMs + 1000,
        pipelining: 1,
      }),
    );
    if (receivers.size >= KEPT_POOLS) {
      const [oldest, stale] = receivers.entries().next().value as [string, KeptReceiver];
      receivers.delete(oldest);
      void stale.pool.close().catch(() => undefined);
    }
  }
  receivers.set(key, receiver);
  return receiver;
}

/**
 * Closes every kept pool (a worker shutting down, once its jobs are over; tests). Destroyed, not closed:
 * what undici still has in flight then belongs to attempts that already ended at their deadline (a
 * handshake that never completes), which a graceful close would wait out, up to the connect time-out.
 */
export async function closePooledClients(): Promise<void> {
  const open = [...receivers.values()];
  receivers.clear();
  await Promise.all(open.map((receiver) => receiver.pool.destroy().catch(() => undefined)));
}
