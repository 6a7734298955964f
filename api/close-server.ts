// Stops an HTTP server the graceful way: no new connections, requests in flight finish, idle keep-alive
// connections are closed as they become idle, and whatever is still open at the deadline is cut.
import type { Server } from 'node:http';

export function closeServer(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    const deadline = setTimeout(() => server.closeAllConnections(), timeoutMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(deadline);
      resolve();
    });
    server.closeIdleConnections();
  });
}
