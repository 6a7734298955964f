// The only way the service fetches outside URLs (URL checks, data events, RDAP). Each hop is checked
// (scheme, every DNS answer public) and connected to the checked address; redirects are followed by
// hand so each target is checked the same way; one deadline covers DNS, the wait for a kept connection,
// connects, TLS handshakes, headers and body of every hop, and the body is capped after decoding. Every
// failure is an OutboundRefused with a reason.
//
// The deadline is kept here, not left to undici: undici honours an abort signal only once a request has a
// connected socket, so a server that accepts TCP and never completes TLS held a fetch until undici's own
// connect time-out (and a kept pool's queue behind it: data-event attempts of 21 to 31 s against 10). At
// the deadline the fetch answers `timeout` whatever undici is doing; what it was doing is then ended (a
// single connection destroyed; a kept one ends with its own limits, see pinned-client.ts KeptReceiver).
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { Client } from 'undici';
import { config } from '../config.js';
import { ACCEPTED_ENCODINGS, readCappedBody } from './capped-body.js';
import { checkHost, type Resolver } from './checked-host.js';
import { OutboundRefused } from './outbound-refused.js';
import { keptReceiver, pinnedClient } from './pinned-client.js';

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 3;

export interface GuardedFetchOptions {
  method?: 'GET' | 'HEAD' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Schemes allowed for the URL and every redirect target; https only unless a caller says otherwise. */
  allowedSchemes?: readonly string[];
  /** false returns a redirect response as it came (the proof file allows no redirects). */
  followRedirects?: boolean;
  maxRedirects?: number;
  /** Total time for every hop: DNS, waiting for a kept connection, connect, TLS, headers and body. */
  timeoutMs?: number;
  /** Cap on the body after decoding (and on the bytes received). */
  maxBytes?: number;
  /**
   * Keep connections to the checked address open for the next request (pinned-client.ts keptReceiver):
   * for senders of many requests to few receivers. Every request is still checked (DNS and policy), and a
   * new address gets new connections. Off by default: a URL check verifies a fresh handshake.
   */
  keepAlive?: boolean;
  /** Tests only: answers DNS in place of the system resolver. */
  resolve?: Resolver;
}

export interface GuardedResponse {
  /** The URL that answered: the request URL, or the last redirect target. */
  url: string;
  status: number;
  /** Lower-case names; repeated headers joined with ", " as fetch does. */
  headers: Record<string, string>;
  body: Buffer;
  /** The address the final hop connected to. */
  address: string;
  /** Each redirect target followed, in order. */
  redirects: string[];
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function guardedFetch(input: string, options: GuardedFetchOptions = {}): Promise<GuardedResponse> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  // Where the fetch has got to, for the refusal's URL.
  const at = { url: input };
  try {
    return await untilAborted(fetchHops(options, timeoutMs, controller.signal, at), controller.signal);
  } catch (error) {
    throw refusalFrom(error, controller.signal.aborted, at.url);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Settles as `work` does, or rejects the moment `signal` aborts, whether or not `work` has noticed: the
 * abort reaches undici too, which ends what it was doing in its own time (its result is then dropped).
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new Error('The deadline passed.'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function fetchHops(
  options: GuardedFetchOptions,
  timeoutMs: number,
  signal: AbortSignal,
  at: { url: string },
): Promise<GuardedResponse> {
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const schemes = options.allowedSchemes ?? ['https:'];
  let method = options.method ?? 'GET';
  let body = options.body;
  let headers = requestHeaders(options.headers);
  const redirects: string[] = [];
  let parsed = parseUrl(at.url, schemes);
  for (;;) {
    const hop = await openHop(parsed, method, headers, body, timeoutMs, signal, options);
    try {
      const location = hop.headers.location;
      if (options.followRedirects !== false && REDIRECTS.has(hop.status) && location) {
        const next = new URL(location, parsed);
        at.url = next.href;
        if (redirects.length >= maxRedirects) {
          throw new OutboundRefused('too_many_redirects', `More than ${maxRedirects} redirects.`, at.url);
        }
        parsed = parseUrl(at.url, schemes);
        redirects.push(at.url);
        if (hop.status === 303 || ((hop.status === 301 || hop.status === 302) && method === 'POST')) {
          [method, body] = ['GET', undefined];
        }
        if (next.origin !== new URL(hop.url).origin) headers = withoutCredentials(headers);
        continue;
      }
      const content = await readCappedBody(hop.body, hop.headers['content-encoding'], maxBytesOf(options), at.url);
      return { url: at.url, status: hop.status, headers: hop.headers, body: content, address: hop.address, redirects };
    } finally {
      hop.close();
    }
  }
}

function maxBytesOf(options: GuardedFetchOptions): number {
  return options.maxBytes ?? DEFAULT_MAX_BYTES;
}

function parseUrl(text: string, schemes: readonly string[]): URL {
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new OutboundRefused('url_invalid', 'The URL is not valid.', text);
  }
  if (!schemes.includes(parsed.protocol)) {
    throw new OutboundRefused('scheme_denied', `The scheme ${parsed.protocol} is not allowed here.`, text);
  }
  if (parsed.username || parsed.password) {
    throw new OutboundRefused('url_invalid', 'The URL may not carry credentials.', text);
  }
  return parsed;
}

interface Hop {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Readable;
  address: string;
  close(): void;
}

async function openHop(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
  timeoutMs: number,
  signal: AbortSignal,
  { resolve, keepAlive }: GuardedFetchOptions,
): Promise<Hop> {
  const checked = await checkHost(url.hostname, { resolve, signal, url: url.href });
  const request = {
    method: method as 'GET',
    path: `${url.pathname}${url.search}`,
    headers,
    body: body ?? null,
    signal,
  };
  if (keepAlive) {
    // The pool's own limits stay at least the default, so every data event of a receiver shares one
    // pool whatever time its attempt has left; the signal is the attempt's deadline.
    const receiver = keptReceiver(url.origin, checked, Math.max(timeoutMs, DEFAULT_TIMEOUT_MS));
    const response = await receiver.request(request);
    const answer = response.body as unknown as Readable;
    return {
      url: url.href,
      status: response.statusCode,
      headers: flatHeaders(response.headers),
      body: answer,
      address: checked.address,
      // A body read to its end leaves its connection for the next request; one left unread (a cap, an
      // abort) is destroyed, which closes that connection alone.
      close: () => {
        if (!answer.readableEnded) answer.destroy();
      },
    };
  }
  const single: Client = pinnedClient(url.origin, checked, timeoutMs);
  // At the deadline the connection goes at once, even mid-handshake, where undici would not see the abort.
  const destroy = () => void single.destroy().catch(() => undefined);
  signal.addEventListener('abort', destroy, { once: true });
  const close = () => {
    signal.removeEventListener('abort', destroy);
    destroy();
  };
  try {
    const response = await single.request(request);
    return {
      url: url.href,
      status: response.statusCode,
      headers: flatHeaders(response.headers),
      body: response.body as unknown as Readable,
      address: checked.address,
      close,
    };
  } catch (error) {
    close();
    throw error;
  }
}

function requestHeaders(extra: Record<string, string> | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': `Jogatina/1.0 (+${config().publicUrl})`,
    accept: '*/*',
    'accept-encoding': ACCEPTED_ENCODINGS,
  };
  for (const [name, value] of Object.entries(extra ?? {})) headers[name.toLowerCase()] = value;
  return headers;
}

/** Credentials meant for one origin never follow a redirect to another. */
function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  const { authorization: _authorization, cookie: _cookie, ...rest } = headers;
  return rest;
}

function flatHeaders(
  headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>,
): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

const TLS_CODE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_GET|UNABLE_TO_VERIFY|EPROTO|HOSTNAME_MISMATCH/;
const CONNECT_CODE = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'ETIMEDOUT',
  'ECONNRESET',
]);
const TIMEOUT_CODE = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Maps whatever undici, TLS or the socket threw to one reason callers can act on. */
function refusalFrom(error: unknown, timedOut: boolean, url: string): OutboundRefused {
  if (error instanceof OutboundRefused) return error;
  if (timedOut) return new OutboundRefused('timeout', 'The fetch took longer than allowed.', url, error);
  const code = errorCode(error);
  if (TIMEOUT_CODE.has(code)) return new OutboundRefused('timeout', 'The server took too long to answer.', url, error);
  if (TLS_CODE.test(code)) {
    return new OutboundRefused('tls_failed', `The TLS connection failed (${code}).`, url, error);
  }
  if (CONNECT_CODE.has(code)) {
    return new OutboundRefused('connect_failed', `The connection failed (${code}).`, url, error);
  }
  return new OutboundRefused('bad_response', `The server's answer was broken (${code || 'unknown'}).`, url, error);
}

function errorCode(error: unknown): string {
  const seen = error as { code?: unknown; cause?: { code?: unknown } } | null;
  if (typeof seen?.code === 'string') return seen.code;
  if (typeof seen?.cause?.code === 'string') return seen.cause.code;
  return '';
}
