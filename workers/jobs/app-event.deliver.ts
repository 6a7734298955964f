// app-event.deliver: one attempt at delivering one event for integrations to its app's URL
// (shared/events/event-delivery.ts; jobs of one fetch share one claim: workers/gathered-delivery.ts).
import { appEventsTarget } from '../../shared/events/event-delivery.js';
import type { JobPayloads } from '../../shared/platform/jobs/queue.js';
import { gatheredDelivery } from '../gathered-delivery.js';
import type { JobHandler } from '../job-context.js';

/** One gathering handler per media storage (the data's image URLs are built by it). */
const handlers = new WeakMap<object, JobHandler<JobPayloads['app-event.deliver']>>();

export const deliverAppEvent: JobHandler<JobPayloads['app-event.deliver']> = (payload, context) => {
  let handler = handlers.get(context.media);
  if (!handler) {
    handler = gatheredDelivery(appEventsTarget((key) => context.media.url(key)));
    handlers.set(context.media, handler);
  }
  return handler(payload, context);
};
