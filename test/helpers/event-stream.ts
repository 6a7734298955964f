// A client of a server-sent events route, as a browser's EventSource reads one: the session cookie, the
// site's Origin, `Last-Event-ID` on a resume; events parsed as they arrive (a cut-off last one is dropped).
import http from 'node:http';
import type { SiteClient } from './site-client.js';

export interface StreamEvent {
  id: string | null;
  event: string;
  data: any;
}

export interface OpenStream {
  events: StreamEvent[];
  /** The status and content type, once the answer's head arrives. */
  head: Promise<{ status: number; type: string }>;
  /** The body's text when the answer is not a stream (an error). */
  text(): string;
  /** Bytes of body received so far. */
  bytes(): number;
  /** Resolves when the server ends or cuts the stream. */
  ended: Promise<void>;
  /** Starts reading a stream opened with `paused`. */
  read(): void;
  close(): void;
}

export interface StreamOptions {
  lastEventId?: string;
  /** Do not read the answer until read() (a client that stops reading). */
  paused?: boolean;
  headers?: Record<string, string>;
}

/** The events of `text`, and what follows the last complete one. */
export function parseEvents(text: string): { events: StreamEvent[]; rest: string } {
  const events: StreamEvent[] = [];
  let rest = text;
  let cut: number;
  while ((cut = rest.indexOf('\n\n')) >= 0) {
    const block = rest.slice(0, cut);
    rest = rest.slice(cut + 2);
    const event = /^event: (.*)$/m.exec(block)?.[1];
    const data = /^data: (.*)$/m.exec(block)?.[1];
    if (event && data !== undefined) {
      events.push({ id: /^id: (.*)$/m.exec(block)?.[1] ?? null, event, data: JSON.parse(data) });
    }
  }
  return { events, rest };
}

export function openEventStream(base: string, path: string, site: SiteClient | null, options: StreamOptions = {}) {
  const events: StreamEvent[] = [];
  let buffer = '';
  let body = '';
  let received = 0;
  let finish: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => (finish = resolve));
  const headers: Record<string, string> = { ...options.headers };
  if (site) {
    headers.cookie = site.cookie ?? '';
    headers.origin = 'http://localhost:3000';
    headers['x-forwarded-for'] = site.ip;
  }
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  const request = http.get(`${base}${path}`, { headers });
  let response: http.IncomingMessage | null = null;
  const start = () => {
    response!.setEncoding('utf8');
    response!.on('data', (chunk: string) => {
      received += Buffer.byteLength(chunk);
      body += chunk.length < 4096 && body.length < 4096 ? chunk : '';
      const parsed = parseEvents(buffer + chunk);
      events.push(...parsed.events);
      buffer = parsed.rest;
    });
  };
  const head = new Promise<{ status: number; type: string }>((resolve, reject) => {
    request.on('error', (error) => {
      finish();
      reject(error);
    });
    request.on('response', (res) => {
      response = res;
      res.on('close', finish);
      res.on('error', () => undefined);
      if (!options.paused) start();
      resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? '') });
    });
  });
  head.catch(() => undefined);
  return {
    events,
    head,
    text: () => body,
    bytes: () => received,
    ended,
    read: () => start(),
    close: () => request.destroy(),
  } satisfies OpenStream;
}

/** The notification stream of a signed-in site client. */
export function notificationStream(base: string, site: SiteClient | null, options: StreamOptions = {}) {
  return openEventStream(base, '/api/v1/notifications/stream', site, options);
}
