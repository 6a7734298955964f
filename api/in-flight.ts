// The requests whose handlers are still running, so that a stop waits for them and not only for their
// connections. A client that gives up (or a load generator that stops) closes its connection while the
// handler is still querying the database: the server then has no connection left, the stop went on to
// close the database pool under the handler, and the handler failed with "aborted" (a 500 in the log at
// every deploy under load, and the work cut short).
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

export class InFlight {
  private running = 0;
  private waiters: Array<() => void> = [];

  /** The listener for http.createServer: `handler` is Koa's callback, whose promise settles when it is done. */
  track(handler: (request: IncomingMessage, response: ServerResponse) => Promise<unknown>): RequestListener {
    return (request, response) => {
      this.running += 1;
      const ended = () => {
        this.running -= 1;
        if (this.running === 0) for (const wake of this.waiters.splice(0)) wake();
      };
      // Koa's callback has answered and logged any error of its own by the time it settles.
      handler(request, response).then(ended, ended);
    };
  }

  get count(): number {
    return this.running;
  }

  /** Resolves true once no handler runs, or false when `timeoutMs` passes first. */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.running === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => {
          this.waiters = this.waiters.filter((waiter) => waiter !== done);
          resolve(false);
        },
        Math.max(0, timeoutMs),
      );
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.waiters.push(done);
    });
  }
}
