// One pino logger per process; every line is JSON with a `level` and an epoch-millisecond `time`.
// Lines are buffered and written asynchronously, because a synchronous write per request costs more
// than the rest of a cheap request. The buffer is written at least every second, at once for lifecycle
// lines (`flushLogs`), and synchronously when the process exits.
import { pino, type Logger, type DestinationStream } from 'pino';
import { config } from './config.js';

export type { Logger };

const FLUSH_EVERY_MS = 1000;

export function createLogger(level: string, destination?: DestinationStream): Logger {
  if (destination) return pino({ level, base: { pid: process.pid } }, destination);
  const stdout = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => stdout.flush(), FLUSH_EVERY_MS).unref();
  return pino({ level, base: { pid: process.pid } }, stdout);
}

let current: Logger | null = null;

export function logger(): Logger {
  current ??= createLogger(config().logLevel);
  return current;
}

/** Writes buffered lines now: after lines other programs wait for (listening, ready, stopping). */
export function flushLogs(): void {
  current?.flush();
}
