// A receiver of signed events in a process of its own: an https server on 127.0.0.1 with the test CA's
// certificate that answers 204 to every POST of /events at once and counts them (verifying nothing: the
// number is the sender's). Out of the load generator's process, so its TLS work never delays autocannon's
// event loop; it runs on the load generator's cores (it inherits their pinning). startEventSink() starts it
// and enters its name in the outbound guard's test door (test/helpers/fake-host.ts), so URLs are
// `https://<name>/events` on port 443 through the door, as subscriptions need.
import { spawn, type ChildProcess } from 'node:child_process';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { enterDoor } from '../../test/helpers/fake-host.js';
import { TEST_DOMAIN, testCertificates } from '../../test/helpers/test-ca.js';

export interface EventSink {
  /** The URL to subscribe. */
  url: string;
  /** The sink's process, for its CPU. */
  pid: number;
  /** POSTs answered so far, and the TLS connections they came on (few: the sender keeps them alive). */
  counts(): Promise<{ events: number; connections: number }>;
  close(): Promise<void>;
}

interface Started {
  port: number;
  caFile: string;
}

const SELF = fileURLToPath(import.meta.url);

/** Starts the sink's process and enters it in this process's test door (OUTBOUND_TEST_HOSTS). */
export async function startEventSink(): Promise<EventSink> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', SELF, 'serve'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const started = await new Promise<Started>((resolve, reject) => {
    child.once('message', (message) => resolve(message as Started));
    child.once('exit', (code) => reject(new Error(`the event sink exited with ${code} before listening`)));
  });
  const name = `events-sink.${TEST_DOMAIN}`;
  const leave = enterDoor(name, `127.0.0.1:${started.port}`, started.caFile);
  let asked = 0;
  const answers = new Map<number, (counts: { events: number; connections: number }) => void>();
  child.on('message', (message) => {
    const { id, events, connections } = message as { id: number; events: number; connections: number };
    answers.get(id)?.({ events, connections });
    answers.delete(id);
  });
  return {
    url: `https://${name}/events`,
    pid: child.pid!,
    counts: () =>
      new Promise((resolve) => {
        const id = ++asked;
        answers.set(id, resolve);
        child.send({ id });
      }),
    close: () =>
      new Promise<void>((done) => {
        leave();
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/** The sink's own process: serve, and answer each count request on the IPC channel. */
async function serve(): Promise<void> {
  const { caFile, trusted } = await testCertificates();
  let events = 0;
  let connections = 0;
  const server = https.createServer({ key: trusted.key, cert: trusted.cert, keepAliveTimeout: 60_000 }, (req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/events') {
        events += 1;
        res.writeHead(204).end();
      } else res.writeHead(404).end();
    });
  });
  server.on('secureConnection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.on('message', (message) => process.send!({ id: (message as { id: number }).id, events, connections }));
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
  process.send!({ port: (server.address() as AddressInfo).port, caFile } satisfies Started);
}

if (process.argv[2] === 'serve' && process.argv[1] === SELF) await serve();
