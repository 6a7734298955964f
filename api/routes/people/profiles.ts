// A person's public pages (spec: People): the profile, the header summary and the library. Each resolves
// the name (current or a 30-day alias), then asks pathPerson what the reader may see: blocked either way
// reads as not found, and the library shows only with a 'full' view.
import { pageParameter } from '../../../shared/platform/paging/paging.js';
import {
  LIBRARY_FLAGS,
  LIBRARY_SORTS,
  LIBRARY_STATUSES,
  EMPTY_LIBRARY,
  libraryAnswer,
  readPersonLibrary,
  type LibraryQuery,
} from '../../../shared/people/library.js';
import { isStaff } from '../../../shared/accounts/account.js';
import { profileSocial } from '../../../shared/people/profile-social.js';
import { publicProfile } from '../../../shared/people/public-profile.js';
import { profileSummary } from '../../../shared/people/summary.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import type { AppContext } from '../../context.js';
import { scoped } from '../../middleware/access.js';
import { recordViewAfterAnswer } from '../../middleware/record-view.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { PEOPLE_DOCS } from './people-docs.js';
import { pathPerson, seenPerson } from './person.js';

const usernameParams: SchemaObject = {
  type: 'object',
  required: ['username'],
  properties: { username: { type: 'string', maxLength: 100 } },
};

const libraryQuery: SchemaObject = {
  type: 'object',
  properties: {
    page: pageParameter(),
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
    status: { type: 'string', enum: [...LIBRARY_STATUSES] },
    ...Object.fromEntries(LIBRARY_FLAGS.map((flag) => [flag, { type: 'boolean' }])),
    sort: { type: 'string', enum: [...LIBRARY_SORTS], default: 'updated' },
    // 1 adds the games; 0 is the same as leaving it out.
    games: { type: 'integer', minimum: 0, maximum: 1 },
  },
};

/** The person named in the path and whether the reader sees their library; 404 when nothing. */
async function visiblePerson(ctx: AppContext) {
  const { owner, readerId, library } = await pathPerson(ctx);
  return { owner, readerId, full: library === 'full' };
}

export function peopleRoutes(api: VersionedRoutes): void {
  const person = validate({ params: usernameParams });

  api.get(
    '/profiles/:username',
    scoped('profile.read', 'read', { anonymous: true }),
    person,
    PEOPLE_DOCS.profile,
    async (ctx) => {
      const { owner } = await visiblePerson(ctx);
      const { knex, media } = ctx.services;
      ctx.body = { data: await publicProfile(knex, owner, (key) => media.url(key)) };
      recordViewAfterAnswer(ctx, { profile: owner.id });
    },
  );

  api.get(
    '/profiles/:username/social',
    scoped('profile.read', 'read', { anonymous: true }),
    person,
    PEOPLE_DOCS.social,
    async (ctx) => {
      // The conversation follows the profile pages' rule: a private account shows it to followers only.
      const { owner, library } = await pathPerson(ctx, 'pages');
      const account = ctx.state.caller?.account;
      const reader = { id: account?.id ?? null, staff: isStaff(account) };
      const { knex, media } = ctx.services;
      ctx.body = { data: await profileSocial(knex, owner, reader, library === 'full', (key) => media.url(key)) };
    },
  );

  api.get(
    '/profiles/:username/summary',
    scoped('profile.read', 'read', { anonymous: true }),
    person,
    PEOPLE_DOCS.summary,
    async (ctx) => {
      const { owner, readerId, full } = await visiblePerson(ctx);
      ctx.body = { data: await profileSummary(ctx.services.knex, readerId, owner.id, full) };
    },
  );

  api.get(
    '/profiles/:username/library',
    scoped('library.read', 'read', { anonymous: true }),
    validate({ params: usernameParams, query: libraryQuery }),
    PEOPLE_DOCS.library,
    async (ctx) => {
      // The person and the page come in one statement; the page is shown only with a 'full' view.
      const query = ctx.state.input.query as unknown as LibraryQuery;
      const readerId = ctx.state.caller?.account.id ?? null;
      const username = ctx.state.input.params.username as string;
      const { person, page } = await readPersonLibrary(ctx.services.knex, username, readerId, query);
      const { owner, library } = seenPerson(person, readerId);
      ctx.body = libraryAnswer(library === 'full' ? page : EMPTY_LIBRARY, owner, query);
    },
  );
}
