// The one way a signed event leaves the service: a JWT signed by the identity key set, POSTed as
// `application/jwt` with Standard Webhooks' `webhook-id` (= jti) and `webhook-timestamp` headers through
// the outbound guard. Data events to game servers and events for integrations both go this way.
import type { Knex } from 'knex';
import { DEFAULT_TIMEOUT_MS, guardedFetch } from '../platform/net/guarded-fetch.js';
import { isOutboundRefused } from '../platform/net/outbound-refused.js';
import { signToken } from '../identity/signing-keys.js';

export interface DeliveryDeps {
  secret: string;
  /** PUBLIC_URL: the tokens' `iss`. */
  issuer: string;
  /** Whole-attempt limit (the guard's 10 s by default). */
  timeoutMs?: number;
}

/** What one POST of a signed token came to: the receiver's status, or the guard's refusal. */
export interface SendResult {
  status?: number;
  error?: string;
  durationMs: number;
}

/** The claims of one event beside `iss` and `iat` (which signing adds). */
export interface EventClaims {
  aud: string;
  jti: string;
  type: string;
  sub?: string;
  seq?: number;
  data: unknown;
}

/**
 * Signs `claims` (header `typ`) and POSTs the token to `url`. `until`: when the attempt must be over at the
 * latest (this process's clock), its lease's end.
 */
export async function sendSignedEvent(
  knex: Knex,
  url: string,
  claims: EventClaims,
  deps: DeliveryDeps,
  typ: string,
  until = Infinity,
): Promise<SendResult> {
  const token = await signToken(knex, deps.secret, { iss: deps.issuer, ...claims }, { typ });
  const started = Date.now();
  const timeoutMs = Math.min(deps.timeoutMs ?? DEFAULT_TIMEOUT_MS, until - started);
  // The lease ran out before the attempt could start (signing waited on the database): nothing was sent,
  // and the event is tried again like after a time-out.
  if (timeoutMs <= 0) return { error: 'timeout', durationMs: 0 };
  try {
    const response = await guardedFetch(url, {
      // A receiver takes many events: its connections stay open between them (each still checked).
      keepAlive: true,
      method: 'POST',
      headers: {
        'content-type': 'application/jwt',
        'webhook-id': claims.jti,
        'webhook-timestamp': String(Math.floor(started / 1000)),
      },
      body: token,
      followRedirects: false,
      maxBytes: 64 * 1024,
      timeoutMs,
    });
    return { status: response.status, durationMs: Date.now() - started };
  } catch (error) {
    if (isOutboundRefused(error)) return { error: error.reason, durationMs: Date.now() - started };
    throw error;
  }
}
