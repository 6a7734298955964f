// An undici client that can only ever connect to the address the guard checked. undici would otherwise
// resolve the URL's host itself at connect time (a second lookup an attacker's DNS can answer
// differently); here the connector swaps the host for the checked address while TLS still verifies the
// certificate against the host name, sent as SNI.
import { createSecureContext, type SecureContext } from 'node:tls';
import { buildConnector, Client } from 'undici';
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

export function pinnedClient(origin: string, checked: CheckedHost, timeoutMs: number): Client {
  const ca = trustedAuthorities();
  const connectTo = buildConnector({
    timeout: timeoutMs,
    rejectUnauthorized: true,
    // No session reuse across checks: each check is a fresh handshake that verifies the certificate.
    maxCachedSessions: 0,
    ...(ca ? { secureContext: secureContextFor(ca) } : {}),
  } as buildConnector.BuildOptions);
  const connect: buildConnector.connector = (options, callback) => {
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
  return new Client(origin, {
    connect,
    // The guard's own abort signal enforces the total time; these are backstops for a stuck socket.
    headersTimeout: timeoutMs + 1000,
    bodyTimeout: timeoutMs + 1000,
    pipelining: 0,
  });
}
