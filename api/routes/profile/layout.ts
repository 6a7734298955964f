// The owner's profile layout (spec: GET/PUT/DELETE /profile/layout, POST /profile/layout/publish).
import { invalidRequest } from '../../../shared/platform/errors.js';
import { ownerLayout, publishLayout, resetLayout, saveLayout } from '../../../shared/layout/layout-versions.js';
import { validateLayout } from '../../../shared/layout/layout-validator.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { INT4_MAX } from '../../../shared/platform/validation/integers.js';
import { LAYOUT_DOCS } from './layout-docs.js';

const putBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['layout', 'version'],
  properties: { layout: { type: 'object' }, version: { type: 'integer', minimum: 0, maximum: INT4_MAX } },
};
const publishBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['version'],
  properties: { version: { type: 'integer', minimum: 1, maximum: INT4_MAX } },
};

export function layoutRoutes(api: VersionedRoutes): void {
  api.get('/profile/layout', scoped('profile.read', 'read'), LAYOUT_DOCS.read, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const { knex, media } = ctx.services;
    ctx.body = { data: await ownerLayout(knex, ctx.state.caller!.account.id, (key) => media.url(key)) };
  });

  api.put(
    '/profile/layout',
    scoped('profile.write', 'write'),
    validate({ body: putBody }),
    LAYOUT_DOCS.save,
    async (ctx) => {
      const result = validateLayout(ctx.state.input.body.layout);
      if (!result.ok) throw invalidRequest('The layout is not valid.', { issues: result.issues });
      const saved = await saveLayout(
        ctx.services.knex,
        ctx.state.caller!.account.id,
        result.document,
        ctx.state.input.body.version as number,
      );
      ctx.body = { data: { version: saved.version, updated_at: new Date(saved.updated_at).toISOString() } };
    },
  );

  api.post(
    '/profile/layout/publish',
    scoped('profile.write', 'write'),
    validate({ body: publishBody }),
    LAYOUT_DOCS.publish,
    async (ctx) => {
      const published = await publishLayout(
        ctx.services.knex,
        ctx.state.caller!.account.id,
        ctx.state.input.body.version as number,
      );
      ctx.body = { data: { version: published.version, published_at: new Date(published.published_at).toISOString() } };
    },
  );

  api.delete('/profile/layout', scoped('profile.write', 'write'), LAYOUT_DOCS.reset, async (ctx) => {
    await resetLayout(ctx.services.knex, ctx.state.caller!.account.id);
    ctx.body = { data: { reset: true } };
  });
}
