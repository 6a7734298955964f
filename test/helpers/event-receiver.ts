// A receiver of events for integrations, as an integration would write one: an https fake host (test CA,
// outbound guard's test door) whose route verifies each event with jose against the service's key set at
// GET /api/v1/jwks, and keeps what it verified. Tests change `status` (or set `hang`) to make it fail.
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import { config } from '../../shared/platform/config.js';
import { startFakeHost, type FakeHost } from './fake-host.js';

export interface ReceivedEvent {
  claims: JWTPayload & { type: string; seq: number; data: unknown };
  typ: string | undefined;
  headers: { id: string; timestamp: string; contentType: string };
}

export interface EventReceiver {
  host: FakeHost;
  /** The URL to subscribe: https, port 443 through the door. */
  url: string;
  received: ReceivedEvent[];
  /** What the receiver answers after verifying (204 by default). */
  status: number;
  /** Accept the request and never answer. */
  hang: boolean;
  /** How many requests came in, verified or not. */
  requests: number;
  /** Events whose token failed verification. */
  refused: number;
  of(type: string): ReceivedEvent[];
  close(): Promise<void>;
}

/** Starts a receiver verifying against `baseUrl`'s key set (the test app's). */
export async function startEventReceiver(baseUrl: string, audience?: string): Promise<EventReceiver> {
  const keySet = createRemoteJWKSet(new URL(`${baseUrl}/api/v1/jwks`));
  const host = await startFakeHost();
  const receiver: EventReceiver = {
    host,
    url: host.url('/events'),
    received: [],
    status: 204,
    hang: false,
    requests: 0,
    refused: 0,
    of: (type) => receiver.received.filter((event) => event.claims.type === type),
    close: () => host.close(),
  };
  host.routes['/events'] = (request, response, body) => {
    receiver.requests += 1;
    if (receiver.hang) return;
    void (async () => {
      const token = body.toString('utf8');
      const { payload } = await jwtVerify(token, keySet, {
        issuer: config().publicUrl,
        typ: 'event+jwt',
        ...(audience ? { audience } : {}),
      });
      receiver.received.push({
        claims: payload as ReceivedEvent['claims'],
        typ: decodeProtectedHeader(token).typ,
        headers: {
          id: String(request.headers['webhook-id']),
          timestamp: String(request.headers['webhook-timestamp']),
          contentType: String(request.headers['content-type']),
        },
      });
      response.writeHead(receiver.status).end();
    })().catch(() => {
      receiver.refused += 1;
      response.writeHead(401).end();
    });
  };
  return receiver;
}
