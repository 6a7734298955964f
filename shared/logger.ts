// One pino logger per process; every line is JSON with a `level` and `time`, ready for a log pipeline.
import { pino, type Logger, type DestinationStream } from 'pino';
import { config } from './config.js';

export type { Logger };

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}

let current: Logger | null = null;

export function logger(): Logger {
  current ??= createLogger(config().logLevel);
  return current;
}
