// An app's icon (spec: POST/DELETE /account/apps/{id}/icon): treated as an avatar by the image pipeline.
import { findOwnApp } from '../../../shared/keys/apps.js';
import { removeAppIcon } from '../../../shared/media/app-icons.js';
import { uploadImage } from '../../../shared/media/image-uploads.js';
import { PICTURE_UPLOADS } from '../../../shared/media/upload-allowance.js';
import { sessionCaller, sessionOnly } from '../../middleware/access.js';
import { countUpload, imageFile } from '../../middleware/image-upload.js';
import { validate } from '../../middleware/validate.js';
import { uploadServices } from '../../services.js';
import type { VersionedRoutes } from '../versioned.js';
import { APP_DOCS } from './apps-docs.js';
import { idParams } from '../schemas.js';

export function appIconRoutes(api: VersionedRoutes): void {
  const write = sessionOnly({ allowance: 'write' });

  api.post(
    '/account/apps/:id/icon',
    write,
    validate({ params: idParams }),
    APP_DOCS.uploadIcon,
    // Another account's app is 404 before its file is read.
    async (ctx, next) => {
      await findOwnApp(ctx.services.knex, sessionCaller(ctx).account.id, ctx.state.input.params.id as string);
      return next();
    },
    countUpload(PICTURE_UPLOADS),
    imageFile(),
    async (ctx) => {
      const appId = ctx.state.input.params.id as string;
      const image = await uploadImage(uploadServices(ctx.services), {
        accountId: sessionCaller(ctx).account.id,
        purpose: 'app_icon',
        appId,
        path: ctx.state.upload!.path,
      });
      // A new icon is a new record (DECISIONS: a POST that creates one answers 201); `id` is the icon's.
      ctx.status = 201;
      ctx.body = { data: { id: image.id, icon_url: image.url } };
    },
  );

  api.delete('/account/apps/:id/icon', write, validate({ params: idParams }), APP_DOCS.deleteIcon, async (ctx) => {
    const { knex, media } = ctx.services;
    const app = await findOwnApp(knex, sessionCaller(ctx).account.id, ctx.state.input.params.id as string);
    await removeAppIcon(knex, media, app.id);
    ctx.body = { data: { id: app.id, icon_url: null } };
  });
}
