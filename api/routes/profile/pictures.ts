// Avatar and banner (spec: GET /profile/images, DELETE /profile/images/{id}; uploading and clearing are
// our routes, see the docs/api-notes.md): an upload becomes the current picture and the one before
// joins the history.
import { uploadImage } from '../../../shared/media/image-uploads.js';
import { PICTURE_UPLOADS } from '../../../shared/media/upload-allowance.js';
import { pageObject } from '../../../shared/platform/paging/paging.js';
import {
  clearPicture,
  forgetPicture,
  HISTORY_PAGE,
  PICTURE_KINDS,
  pictureHistory,
  type PictureKind,
} from '../../../shared/profiles/pictures.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { scoped, sessionCaller, sessionOnly } from '../../middleware/access.js';
import { countUpload, imageFile } from '../../middleware/image-upload.js';
import { validate } from '../../middleware/validate.js';
import { uploadServices } from '../../services.js';
import type { VersionedRoutes } from '../versioned.js';
import { PROFILE_DOCS } from './profile-docs.js';

const historyQuery: SchemaObject = {
  type: 'object',
  required: ['kind'],
  properties: { kind: { type: 'string', enum: [...PICTURE_KINDS] } },
};
const idParams: SchemaObject = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', maxLength: 100 } },
};

const KIND_OF_PATH: Record<string, PictureKind> = { avatar: 'AVATAR', banner: 'BANNER' };

export function pictureRoutes(api: VersionedRoutes): void {
  api.get(
    '/profile/images',
    scoped('profile.read', 'read'),
    validate({ query: historyQuery }),
    PROFILE_DOCS.pictures,
    async (ctx) => {
      const { knex, media } = ctx.services;
      const kind = ctx.state.input.query.kind as PictureKind;
      const data = await pictureHistory(knex, ctx.state.caller!.account.id, kind, (key) => media.url(key));
      ctx.body = { data, page: pageObject(1, HISTORY_PAGE, data.length) };
    },
  );

  api.delete(
    '/profile/images/:id',
    scoped('profile.write', 'write'),
    validate({ params: idParams }),
    PROFILE_DOCS.forgetPicture,
    async (ctx) => {
      const id = ctx.state.input.params.id as string;
      await forgetPicture(ctx.services.knex, ctx.services.media, ctx.state.caller!.account.id, id);
      ctx.body = { data: { id, deleted: true } };
    },
  );

  for (const [path, kind] of Object.entries(KIND_OF_PATH)) {
    api.post(
      `/profile/${path}`,
      sessionOnly({ allowance: 'write', mfa: true }),
      countUpload(PICTURE_UPLOADS),
      imageFile(),
      PROFILE_DOCS.current[kind].upload,
      async (ctx) => {
        const image = await uploadImage(uploadServices(ctx.services), {
          accountId: sessionCaller(ctx).account.id,
          purpose: kind === 'AVATAR' ? 'avatar' : 'banner',
          path: ctx.state.upload!.path,
        });
        ctx.status = 201;
        ctx.body = { data: { ...image, kind } };
      },
    );

    api.delete(
      `/profile/${path}`,
      sessionOnly({ allowance: 'write', mfa: true }),
      PROFILE_DOCS.current[kind].clear,
      async (ctx) => {
        await clearPicture(ctx.services.knex, sessionCaller(ctx).account.id, kind);
        ctx.body = { data: { kind, cleared: true } };
      },
    );
  }
}
