// A person's collections (spec: People): lists, list folders and journeys. Each resolves the name (current
// or a 30-day alias); a block either way reads as not found. What shows after that is each item's own
// visibility (shared/people/item-visibility.ts), not the library's: the profile summary counts them the same.
import { invalidRequest } from '../../../shared/platform/errors.js';
import { pageParameter } from '../../../shared/platform/paging/paging.js';
import { ITEM_VISIBILITIES } from '../../../shared/people/item-visibility.js';
import { JOURNEY_PAGE, readJourneys, type JourneysQuery } from '../../../shared/people/journeys.js';
import {
  LIST_MODES,
  LIST_PAGE,
  LIST_SORTS,
  readFolders,
  readLists,
  type ListsQuery,
} from '../../../shared/people/lists.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import type { AppContext } from '../../context.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { PEOPLE_COLLECTION_DOCS } from './people-collection-docs.js';
import { pathPerson, relationOf } from './person.js';

const params: SchemaObject = {
  type: 'object',
  required: ['username'],
  properties: { username: { type: 'string', maxLength: 100 } },
};

const listsQuery: SchemaObject = {
  type: 'object',
  properties: {
    visibility: { type: 'string', enum: [...ITEM_VISIBILITIES] },
    mode: { type: 'string', enum: [...LIST_MODES] },
    sort: { type: 'string', enum: [...LIST_SORTS], default: 'recent' },
    limit: { type: 'integer', minimum: 1, maximum: LIST_PAGE.maxLimit, default: LIST_PAGE.defaultLimit },
    offset: { type: 'integer', minimum: 0, maximum: LIST_PAGE.maxOffset, default: 0 },
    before: { type: 'string', format: 'date-time' },
    q: { type: 'string', maxLength: LIST_PAGE.maxQuery },
    // A folder's public id, or NONE for lists in no folder.
    folder: { type: 'string', minLength: 1, maxLength: 100 },
  },
};

const journeysQuery: SchemaObject = {
  type: 'object',
  properties: {
    page: pageParameter(JOURNEY_PAGE.maxPage),
    limit: { type: 'integer', minimum: 1, maximum: JOURNEY_PAGE.maxLimit, default: JOURNEY_PAGE.defaultLimit },
  },
};

/** The person named in the path and the reader's relation to them; 404 when missing or blocked. */
async function visibleOwner(ctx: AppContext) {
  const person = await pathPerson(ctx);
  return { owner: person.owner, relation: relationOf(person) };
}

export function peopleCollectionRoutes(api: VersionedRoutes): void {
  api.get(
    '/profiles/:username/lists',
    scoped('lists.read', 'read', { anonymous: true }),
    validate({ params, query: listsQuery }),
    PEOPLE_COLLECTION_DOCS.lists,
    async (ctx) => {
      const query = ctx.state.input.query as unknown as ListsQuery;
      // `before` is a cursor over the update time, so it means nothing in any other order.
      if (query.before !== undefined && query.sort !== 'recent') {
        throw invalidRequest('`before` pages only the recent sort; use `offset` with this one.', { field: 'before' });
      }
      // A cursor page is the first page of what lies before it (its `page.number` is 1, DECISIONS): an
      // offset on top would make that number a lie, so the two ways of paging do not mix.
      if (query.before !== undefined && query.offset > 0) {
        throw invalidRequest('Page with `before` or with `offset`, not both.', {
          field: 'offset',
          reason: 'not_allowed',
        });
      }
      const { owner, relation } = await visibleOwner(ctx);
      ctx.body = await readLists(ctx.services.knex, owner.id, relation, query);
    },
  );

  api.get(
    '/profiles/:username/lists/folders',
    scoped('lists.read', 'read', { anonymous: true }),
    validate({ params }),
    PEOPLE_COLLECTION_DOCS.folders,
    async (ctx) => {
      const { owner, relation } = await visibleOwner(ctx);
      ctx.body = await readFolders(ctx.services.knex, owner.id, relation);
    },
  );

  api.get(
    '/profiles/:username/journeys',
    scoped('journal.read', 'read', { anonymous: true }),
    validate({ params, query: journeysQuery }),
    PEOPLE_COLLECTION_DOCS.journeys,
    async (ctx) => {
      const { owner, relation } = await visibleOwner(ctx);
      const query = ctx.state.input.query as unknown as JourneysQuery;
      ctx.body = await readJourneys(ctx.services.knex, owner.id, relation, query);
    },
  );
}
