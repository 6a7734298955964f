// Store-page images (spec arcade.md: POST/DELETE /account/apps/{id}/arcade/media): the developer routes'
// access (a session that passed two-factor, the owner's game, no publisher block), then one slot of the
// draft. What costs nothing is refused before the upload's bytes are read: a submitted store page and a
// day's uploads used up.
import { errors as formidableErrors } from 'formidable';
import {
  assertListingOpen,
  clearSlot,
  mediaInvalid,
  parseSlot,
  SLOT_KINDS,
  takeUpload,
  uploadSlotImage,
  type MediaSlot,
} from '../../../shared/arcade/media.js';
import { invalidRequest } from '../../../shared/platform/errors.js';
import type { AppContext } from '../../context.js';
import { inUploadFolder, readUpload, UPLOAD_LIMIT_BYTES } from '../../middleware/multipart.js';
import { validate } from '../../middleware/validate.js';
import { uploadServices } from '../../services.js';
import type { VersionedRoutes } from '../versioned.js';
import { ARCADE_DEVELOPER_DOCS } from './arcade-developer-docs.js';
import { developer, developerGame } from './developer-game.js';
import { idParams } from '../schemas.js';
import { judgedByRoute } from '../../openapi/route-facts.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';

/** A store-page slot as the form and the query name it; parseSlot judges them (400 `media_invalid`). */
const SLOT_FIELDS: Record<string, SchemaObject> = {
  kind: { type: 'string', enum: [...SLOT_KINDS] },
  position: { type: 'string', pattern: '^[0-9]$', description: '0, or 0 to 5 for screenshot.' },
};

export function arcadeMediaRoutes(api: VersionedRoutes): void {
  const params = validate({ params: idParams });

  api.post(
    '/account/apps/:id/arcade/media',
    developer('write'),
    params,
    judgedByRoute({
      form: { file: 'file', maxBytes: UPLOAD_LIMIT_BYTES, fields: SLOT_FIELDS, required: ['kind', 'position'] },
    }),
    ARCADE_DEVELOPER_DOCS.uploadMedia,
    async (ctx) => {
      const { knex } = ctx.services;
      const game = await developerGame(ctx, { move: true, publishing: true });
      await assertListingOpen(knex, game.app_id);
      const ticket = await takeUpload(knex, game.app_id);
      try {
        await withMediaForm(ctx, async (slot, file) => {
          const imageUrl = await uploadSlotImage(uploadServices(ctx.services), game, slot, file, ticket);
          ctx.status = 201;
          ctx.body = { data: { kind: slot.kind, position: slot.position, image_url: imageUrl } };
        });
      } finally {
        await ticket.settle();
      }
    },
  );

  api.delete(
    '/account/apps/:id/arcade/media',
    developer('write'),
    params,
    judgedByRoute({ query: { type: 'object', required: ['kind', 'position'], properties: SLOT_FIELDS } }),
    ARCADE_DEVELOPER_DOCS.deleteMedia,
    async (ctx) => {
      const game = await developerGame(ctx, { move: true, publishing: true });
      const slot = parseSlot(ctx.query.kind, ctx.query.position);
      await clearSlot(ctx.services.knex, ctx.services.media, game, slot);
      ctx.body = { data: { kind: slot.kind, position: slot.position, image_url: null } };
    },
  );
}

/**
 * Reads the form (`kind`, `position`, one `file` of up to 15 MB) and hands the slot and the file's
 * temporary path to `use`. The shared reader answers its own reasons; here every problem with what was
 * sent is `media_invalid`, and kind and position are judged before the file goes anywhere. The temporary
 * folder goes when `use` is done, whatever happened.
 */
async function withMediaForm(ctx: AppContext, use: (slot: MediaSlot, file: string) => Promise<void>): Promise<void> {
  await inUploadFolder(ctx, 'Send multipart/form-data with the fields kind, position and file.', async (dir) => {
    const { fields, file } = await readUpload(ctx, dir, 'file', UPLOAD_LIMIT_BYTES, formError);
    const slot = parseSlot(only(fields.kind), only(fields.position));
    if (!file) throw mediaInvalid('file', 'The image is missing: send it in the field "file".');
    await use(slot, file.filepath);
  });
}

/** A field sent once; sent twice it is as wrong as a missing one. */
function only(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function formError(error: { code?: number }) {
  switch (error.code) {
    case formidableErrors.biggerThanMaxFileSize:
    case formidableErrors.biggerThanTotalMaxFileSize:
      return mediaInvalid('too_large', 'The file is larger than 15 MiB.');
    case formidableErrors.noEmptyFiles:
    case formidableErrors.smallerThanMinFileSize:
      return mediaInvalid('invalid_image', 'The file is empty.');
    case formidableErrors.maxFilesExceeded:
      return mediaInvalid('file', 'Send one image at a time, in the field "file".');
    default:
      return invalidRequest('The multipart body could not be read.', { reason: 'malformed_body' });
  }
}
