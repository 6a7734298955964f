// LISTEN/NOTIFY between processes. A NOTIFY sent inside a transaction is delivered only at commit, which
// is what makes the wake-up of a worker safe to send together with the job. Each process keeps one
// dedicated connection for listening and reconnects on its own when it drops.
import pg from 'pg';
import type { Logger } from '../logger.js';

/** A job was sent: payload is the queue name, so an idle worker fetches at once instead of at its next poll. */
export const JOBS_SENT = 'jogatina_jobs_sent';
/** A request/reply job finished: payload is JSON `{ id, ok, result?, error?, large? }`. */
export const JOB_DONE = 'jogatina_job_done';

type Handler = (payload: string) => void;

export class Signals {
  private client: pg.Client | null = null;
  private readonly handlers = new Map<string, Set<Handler>>();
  private reconnectTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private connecting: Promise<void> | null = null;

  constructor(
    private readonly connectionString: string,
    private readonly log: Logger,
  ) {}

  async listen(channel: string, handler: Handler): Promise<void> {
    const known = this.handlers.has(channel);
    if (!known) this.handlers.set(channel, new Set());
    this.handlers.get(channel)!.add(handler);
    await this.connect();
    if (!known && this.client) await this.client.query(`LISTEN ${channel}`);
  }

  private connect(): Promise<void> {
    if (this.client || this.closed) return Promise.resolve();
    this.connecting ??= this.open().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async open(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'jogatina-signals' });
    client.on('notification', (message) => {
      for (const handler of this.handlers.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    client.on('error', (error) => {
      this.log.warn({ err: error }, 'signal connection lost; reconnecting');
      this.dropAndRetry(client);
    });
    client.on('end', () => this.dropAndRetry(client));
    await client.connect();
    for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
    this.client = client;
  }

  private dropAndRetry(client: pg.Client): void {
    if (this.client !== client || this.closed) return;
    this.client = null;
    client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    this.reconnectTimer = setTimeout(() => {
      // Notifications sent while disconnected are lost; waiters cover that with their own slow poll.
      this.connect().catch((error) => {
        this.log.warn({ err: error }, 'signal reconnect failed; trying again');
        this.scheduleReconnect();
      });
    }, 1000);
    this.reconnectTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = null;
    if (client) await client.end().catch(() => undefined);
  }
}
