// Layout images (spec: GET/POST/DELETE /profile/layout/media): session only; upload and delete also
// refuse a session that still owes its second factor.
import { quotaExceeded, uploadImage } from '../../../shared/media/image-uploads.js';
import { deleteLayoutImage, layoutQuotaIn, listLayoutImages, quotaFull } from '../../../shared/media/layout-images.js';
import { LAYOUT_IMAGE_UPLOADS } from '../../../shared/media/upload-allowance.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { sessionCaller, sessionOnly } from '../../middleware/access.js';
import { countUpload, imageFile } from '../../middleware/image-upload.js';
import { validate } from '../../middleware/validate.js';
import { uploadServices } from '../../services.js';
import type { VersionedRoutes } from '../versioned.js';
import { LAYOUT_DOCS } from './layout-docs.js';

const idParams: SchemaObject = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', maxLength: 100 } },
};
const deleteQuery: SchemaObject = { type: 'object', properties: { force: { type: 'boolean', default: false } } };

export function layoutMediaRoutes(api: VersionedRoutes): void {
  api.get('/profile/layout/media', sessionOnly({ allowance: 'read' }), LAYOUT_DOCS.images, async (ctx) => {
    const { knex, media } = ctx.services;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await listLayoutImages(knex, sessionCaller(ctx).account.id, (key) => media.url(key));
  });

  api.post(
    '/profile/layout/media',
    sessionOnly({ allowance: 'write', mfa: true }),
    countUpload(LAYOUT_IMAGE_UPLOADS),
    // Refused before the file is read: an account at its quota (or over a lowered one) cannot upload.
    async (ctx, next) => {
      const quota = await layoutQuotaIn(ctx.services.knex, sessionCaller(ctx).account.id);
      if (quotaFull(quota)) throw quotaExceeded(quota);
      return next();
    },
    imageFile(),
    LAYOUT_DOCS.upload,
    async (ctx) => {
      const image = await uploadImage(uploadServices(ctx.services), {
        accountId: sessionCaller(ctx).account.id,
        purpose: 'layout',
        path: ctx.state.upload!.path,
      });
      ctx.status = 201;
      ctx.body = { data: image };
    },
  );

  api.delete(
    '/profile/layout/media/:id',
    sessionOnly({ allowance: 'write', mfa: true }),
    validate({ params: idParams, query: deleteQuery }),
    LAYOUT_DOCS.deleteImage,
    async (ctx) => {
      const id = ctx.state.input.params.id as string;
      const { knex, media } = ctx.services;
      await deleteLayoutImage(knex, media, sessionCaller(ctx).account.id, id, ctx.state.input.query.force as boolean);
      ctx.body = { data: { id, deleted: true } };
    },
  );
}
