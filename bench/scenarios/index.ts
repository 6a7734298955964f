import type { Scenario } from '../scenario.js';
import { charge } from './charge.js';
import { layout } from './layout.js';
import { me } from './me.js';
import { people } from './people.js';
import { content } from './content.js';
import { catalog } from './catalog.js';
import { catalogMemory } from './catalog-memory.js';
import { dataEvents } from './data-events.js';
import { events } from './events.js';
import { images } from './images.js';
import { stack } from './stack.js';
import { history } from './history.js';
import { notifications } from './notifications.js';
import { startup } from './startup.js';

export const scenarios: Record<string, Scenario> = {
  stack,
  me,
  charge,
  layout,
  images,
  catalog,
  'catalog-memory': catalogMemory,
  people,
  content,
  'data-events': dataEvents,
  events,
  history,
  notifications,
  startup,
};
