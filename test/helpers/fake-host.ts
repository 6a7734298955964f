// A fake developer host: an https server on 127.0.0.1 with a certificate from the test CA, registered
// in the outbound guard's test door under a name like `host-3.jogatina.test` with its port, so URLs use
// the default port 443 (as entry URLs must) and the guard connects to this server. Routes are replies by
// path (query ignored); tests may change `routes` between requests. close() stops it and takes its name
// out of the door.
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resetConfigForTests } from '../../shared/platform/config.js';
import { TEST_DOMAIN, testCertificates } from './test-ca.js';

export interface FakeReply {
  status?: number;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
}

/** Full control for a route: slow bodies, redirects computed from the request, dropped connections. */
export type FakeHandler = (request: IncomingMessage, response: ServerResponse, body: Buffer) => void;

export type FakeRoute = FakeReply | FakeHandler;

export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface FakeHostOptions {
  routes?: Record<string, FakeRoute>;
  /** Defaults to a fresh `host-N.jogatina.test`; names outside the domain fail TLS (useful for that). */
  name?: string;
  /** `untrusted`: a certificate no configured authority signed. */
  certificate?: 'trusted' | 'untrusted';
}

export interface FakeHost {
  name: string;
  port: number;
  /** `https://name`: the door supplies the port. */
  origin: string;
  url(path: string): string;
  routes: Record<string, FakeRoute>;
  requests: FakeRequest[];
  /** TLS connections accepted so far (kept connections are counted once). */
  connections(): number;
  close(): Promise<void>;
}

let counter = 0;

export async function startFakeHost(options: FakeHostOptions = {}): Promise<FakeHost> {
  const certificates = await testCertificates();
  const pair = options.certificate === 'untrusted' ? certificates.untrusted : certificates.trusted;
  const name = (options.name ?? `host-${++counter}.${TEST_DOMAIN}`).toLowerCase();
  const routes: Record<string, FakeRoute> = { ...options.routes };
  const requests: FakeRequest[] = [];

  const server = https.createServer({ key: pair.key, cert: pair.cert }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'https://fake').pathname;
      const body = Buffer.concat(chunks);
      requests.push({ method: request.method ?? 'GET', path, headers: request.headers, body });
      const route = routes[path];
      if (!route) return void response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      if (typeof route === 'function') return route(request, response, body);
      response.writeHead(route.status ?? 200, route.headers ?? {}).end(route.body ?? '');
    });
  });
  let connections = 0;
  server.on('secureConnection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const leave = enterDoor(name, `127.0.0.1:${port}`, certificates.caFile);

  return {
    name,
    port,
    origin: `https://${name}`,
    url: (path) => `https://${name}${path}`,
    routes,
    requests,
    connections: () => connections,
    async close() {
      leave();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const entries = new Map<string, string>();
let saved: { hosts: string | undefined; caFile: string | undefined } | null = null;

/**
 * Maps a name to an address (`127.0.0.1:port`, or any address a test wants the guard to see) in the
 * test door, trusting the test CA. Returns the function that takes the name out again; the variables
 * are restored once the last name leaves.
 */
export function enterDoor(name: string, address: string, caFile: string): () => void {
  if (entries.size === 0) {
    saved = { hosts: process.env.OUTBOUND_TEST_HOSTS, caFile: process.env.OUTBOUND_TEST_CA_FILE };
  }
  entries.set(name.toLowerCase(), address);
  applyDoor(caFile);
  return () => {
    if (!entries.delete(name.toLowerCase())) return;
    if (entries.size > 0) return applyDoor(caFile);
    restore('OUTBOUND_TEST_HOSTS', saved?.hosts);
    restore('OUTBOUND_TEST_CA_FILE', saved?.caFile);
    saved = null;
    resetConfigForTests();
  };
}

function applyDoor(caFile: string): void {
  const pairs = [...entries].map(([name, address]) => `${name}=${address}`);
  if (saved?.hosts) pairs.unshift(saved.hosts);
  process.env.OUTBOUND_TEST_HOSTS = pairs.join(',');
  process.env.OUTBOUND_TEST_CA_FILE = caFile;
  resetConfigForTests();
}

function restore(variable: string, value: string | undefined): void {
  if (value === undefined) delete process.env[variable];
  else process.env[variable] = value;
}
