// The owner's profile and drafts (spec: Profile and layout, scoped routes).
import {
  DRAFT_KINDS,
  DRAFT_PAGE_SIZE,
  createDraft,
  deleteDraft,
  getDraft,
  listDrafts,
  presentDraft,
  updateDraft,
  type DraftInput,
} from '../../../shared/profiles/drafts.js';
import {
  LIBRARY_VISIBILITIES,
  PROFILE_FIELDS,
  readOwnProfile,
  updateProfile,
  type ProfileChanges,
} from '../../../shared/profiles/profile.js';
import { pageObject, pageParameter, pageWindow } from '../../../shared/platform/paging/paging.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { PROFILE_DOCS } from './profile-docs.js';

const profilePatch: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  properties: {
    display_name: { type: 'string', maxLength: 60 },
    ...Object.fromEntries(
      Object.entries(PROFILE_FIELDS).map(([field, max]) => [field, { type: 'string', maxLength: max }]),
    ),
    library_visibility: { type: 'string', enum: [...LIBRARY_VISIBILITIES] },
    record_history: { type: 'boolean' },
  },
};

const draftFields: Record<string, SchemaObject> = {
  kind: { type: 'string', enum: [...DRAFT_KINDS] },
  title: { type: 'string', maxLength: 200 },
  body: { type: 'string', maxLength: 20000 },
  game: { type: ['string', 'null'], maxLength: 150, pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' },
};
const draftCreate: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['kind'],
  properties: draftFields,
};
const draftPatch: SchemaObject = { type: 'object', additionalProperties: false, properties: draftFields };
const draftParams: SchemaObject = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', maxLength: 100 } },
};
const draftsQuery: SchemaObject = { type: 'object', properties: { page: pageParameter() } };
const PAGE = { size: DRAFT_PAGE_SIZE };

export function profileRoutes(api: VersionedRoutes): void {
  api.get('/profile', scoped('profile.read', 'read'), PROFILE_DOCS.read, async (ctx) => {
    const { knex, media } = ctx.services;
    ctx.body = { data: await readOwnProfile(knex, ctx.state.caller!.account, (key) => media.url(key)) };
  });

  api.patch(
    '/profile',
    scoped('profile.write', 'write'),
    validate({ body: profilePatch }),
    PROFILE_DOCS.update,
    async (ctx) => {
      ctx.body = {
        data: await updateProfile(
          ctx.services.knex,
          ctx.state.caller!.account.id,
          ctx.state.input.body as ProfileChanges,
          (key) => ctx.services.media.url(key),
        ),
      };
    },
  );

  api.get(
    '/drafts',
    scoped('profile.read', 'read'),
    validate({ query: draftsQuery }),
    PROFILE_DOCS.drafts,
    async (ctx) => {
      const number = ctx.state.input.query.page as number;
      const { rows, total } = await listDrafts(
        ctx.services.knex,
        ctx.state.caller!.account.id,
        pageWindow(number, PAGE),
      );
      ctx.body = { data: rows.map(presentDraft), page: pageObject(number, PAGE, total) };
    },
  );

  api.post(
    '/drafts',
    scoped('profile.write', 'write'),
    validate({ body: draftCreate }),
    PROFILE_DOCS.createDraft,
    async (ctx) => {
      const draft = await createDraft(
        ctx.services.knex,
        ctx.state.caller!.account.id,
        ctx.state.input.body as unknown as Required<Pick<DraftInput, 'kind'>> & DraftInput,
      );
      ctx.status = 201;
      ctx.body = { data: presentDraft(draft) };
    },
  );

  api.get(
    '/drafts/:id',
    scoped('profile.read', 'read'),
    validate({ params: draftParams }),
    PROFILE_DOCS.draft,
    async (ctx) => {
      ctx.body = {
        data: presentDraft(
          await getDraft(ctx.services.knex, ctx.state.caller!.account.id, ctx.state.input.params.id as string),
        ),
      };
    },
  );

  api.patch(
    '/drafts/:id',
    scoped('profile.write', 'write'),
    validate({ params: draftParams, body: draftPatch }),
    PROFILE_DOCS.updateDraft,
    async (ctx) => {
      const draft = await updateDraft(
        ctx.services.knex,
        ctx.state.caller!.account.id,
        ctx.state.input.params.id as string,
        ctx.state.input.body as DraftInput,
      );
      ctx.body = { data: presentDraft(draft) };
    },
  );

  api.delete(
    '/drafts/:id',
    scoped('profile.write', 'write'),
    validate({ params: draftParams }),
    PROFILE_DOCS.deleteDraft,
    async (ctx) => {
      const id = ctx.state.input.params.id as string;
      await deleteDraft(ctx.services.knex, ctx.state.caller!.account.id, id);
      ctx.body = { data: { id, deleted: true } };
    },
  );
}
