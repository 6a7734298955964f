// data-event.deliver: one attempt at delivering one data event to its game's server
// (shared/arcade/delivery.ts; jobs of one fetch share one claim: workers/gathered-delivery.ts).
import { DATA_EVENTS } from '../../shared/arcade/delivery.js';
import { gatheredDelivery } from '../gathered-delivery.js';

export const deliverEvent = gatheredDelivery(DATA_EVENTS);
