// Orderly exit on SIGTERM (a deploy or scale-down) and SIGINT (Ctrl-C): run the process's stop steps in
// order, and exit anyway if they take longer than the configured time, so a platform never has to kill -9.
import { flushLogs, type Logger } from './logger.js';

export function exitOnSignals(log: Logger, timeoutMs: number, stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping');
    flushLogs();
    const force = setTimeout(() => {
      log.error({ timeout_ms: timeoutMs }, 'stop took too long; exiting anyway');
      process.exit(1);
    }, timeoutMs + 2000);
    force.unref();
    stop()
      .then(() => {
        log.info('stopped');
        process.exit(0);
      })
      .catch((error) => {
        log.error({ err: error }, 'stop failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
