// Stops an HTTP server the graceful way: no new connections, requests in flight finish, and whatever is
// still open at the deadline is cut.
//
// Idle keep-alive connections are where a stop usually fails requests: closing one races with a client
// that has just picked it from its pool to send the next request, which then sees a reset. So a draining
// stop (the web process's, `drain: true`) closes none of them itself: every answer from then on says
// `Connection: close`, so each connection a client uses again ends after that answer, and the ones left
// idle end at the server's keep-alive timeout, which clients know from the `Keep-Alive` header and stop
// reusing a connection before. A quick stop (tests) closes idle connections at once.
import type { Server } from 'node:http';
import net from 'node:net';

export function closeServer(server: Server, timeoutMs: number, options: { drain?: boolean } = {}): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    const deadline = setTimeout(() => server.closeAllConnections(), timeoutMs);
    const sweep = options.drain ? undefined : setInterval(() => server.closeIdleConnections(), 100);
    const closed = () => {
      clearInterval(sweep);
      clearTimeout(deadline);
      resolve();
    };
    if (options.drain) {
      server.prependListener('request', (_request, response) => response.setHeader('Connection', 'close'));
      // net's own close: stop accepting, and leave the open connections be (http's close also closes the
      // idle ones at once, since Node 19).
      net.Server.prototype.close.call(server, closed);
      return;
    }
    server.close(closed);
    server.closeIdleConnections();
  });
}
