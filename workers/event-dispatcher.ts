// Sends the delivery jobs of new events for integrations as soon as they commit. Their triggers cannot send
// a pg-boss job (shared/events/event-delivery.ts), so they notify APP_EVENTS_CHANNEL at commit and this
// queues every event no job carries yet. Notifications that come while it runs are answered by one more
// run, never by runs side by side; the per-minute sweep catches what a stopped worker missed.
import type { Knex } from 'knex';
import { APP_EVENTS_CHANNEL, queueNewEvents } from '../shared/events/event-delivery.js';
import type { Signals } from '../shared/platform/jobs/signals.js';
import type { Logger } from '../shared/platform/logger.js';

export interface EventDispatcher {
  /** Resolves when no run is in progress (the worker's stop waits for it). */
  idle(): Promise<void>;
}

export async function startEventDispatcher(signals: Signals, knex: Knex, log: Logger): Promise<EventDispatcher> {
  let running: Promise<void> | null = null;
  let again = false;
  const run = (): void => {
    if (running) {
      again = true;
      return;
    }
    again = false;
    running = queueNewEvents(knex)
      .then(
        () => undefined,
        (error: unknown) => log.warn({ err: error }, 'events for integrations not queued; the sweep will'),
      )
      .finally(() => {
        running = null;
        if (again) run();
      });
  };
  await signals.listen(APP_EVENTS_CHANNEL, run);
  // What committed while no worker listened.
  run();
  return { idle: async () => void (await running) };
}
