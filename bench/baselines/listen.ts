// How every baseline server starts and stops: on a free loopback port, announced as startServer waits for
// it (a JSON line `listening` with the port), and closed on SIGTERM once `beforeExit` is done.
import type http from 'node:http';

export function listenOnLoopback(
  server: http.Server,
  beforeExit: () => Promise<unknown> = async () => undefined,
): void {
  server.listen(0, '127.0.0.1', () => {
    const address = server.address() as { port: number };
    console.log(JSON.stringify({ msg: 'listening', port: address.port }));
  });
  process.on('SIGTERM', () => server.close(() => void beforeExit().then(() => process.exit(0))));
}
