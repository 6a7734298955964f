// Sends the delivery jobs of new events for integrations soon after they commit. Their triggers cannot send
// a pg-boss job (shared/events/event-delivery.ts), and do not NOTIFY either (PostgreSQL commits notifying
// transactions one at a time, which cut the subscribed writes to a third of their rate), so this looks for
// events no job carries every DISPATCH_MS and queues them in one statement a batch. A re-enabled
// subscription wakes it at once (APP_EVENTS_CHANNEL). Runs never overlap: a wake-up during a run makes one
// more. The per-minute sweep catches what a stopped worker missed.
import type { Knex } from 'knex';
import { APP_EVENTS_CHANNEL, queueNewEvents } from '../shared/events/event-delivery.js';
import type { Signals } from '../shared/platform/jobs/signals.js';
import type { Logger } from '../shared/platform/logger.js';

/** How often a worker looks for new events: an event waits this long at most before its job is sent. */
export const DISPATCH_MS = 200;

export interface EventDispatcher {
  /** Stops looking, and resolves when no run is in progress (the worker's stop waits for it). */
  stop(): Promise<void>;
}

export async function startEventDispatcher(signals: Signals, knex: Knex, log: Logger): Promise<EventDispatcher> {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  // Told once when looking starts failing (the database gone: five looks a second would each say so), and
  // once when it works again.
  let failing = false;
  const run = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    again = false;
    running = queueNewEvents(knex)
      .then(
        () => {
          if (failing) log.info('events for integrations queued again');
          failing = false;
        },
        (error: unknown) => {
          if (!failing) log.warn({ err: error }, 'events for integrations not queued; trying again');
          failing = true;
        },
      )
      .finally(() => {
        running = null;
        if (again) run();
      });
  };
  await signals.listen(APP_EVENTS_CHANNEL, run);
  const timer = setInterval(run, DISPATCH_MS);
  timer.unref();
  // What committed while no worker looked.
  run();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
