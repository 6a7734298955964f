// Captures uploaded, edited and deleted by their author (DECISIONS: Screenshots). Every route needs
// `screenshots.write` and spends the write allowance; others read captures through the galleries and the
// feed. An upload refuses what costs nothing before its file is read: a full quota, a spent daily cap.
import {
  createCapture,
  deleteCapture,
  refuseBeforeUpload,
  updateCapture,
} from '../../../shared/screenshots/capture-commands.js';
import { presentCapture } from '../../../shared/screenshots/presenters.js';
import type { CaptureChanges, CaptureFields } from '../../../shared/screenshots/rows.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import { uploadServices } from '../../services.js';
import type { VersionedRoutes } from '../versioned.js';
import { captureForm } from './capture-form.js';
import { CAPTURE_DOCS } from './screenshots-docs.js';
import { captureFormFields, captureParams, capturePatchBody } from './schemas.js';

export function screenshotWriteRoutes(api: VersionedRoutes): void {
  api.post(
    '/screenshots',
    scoped('screenshots.write', 'write'),
    async (ctx, next) => {
      await refuseBeforeUpload(ctx.services.knex, ctx.state.caller!.account.id);
      return next();
    },
    captureForm(captureFormFields),
    CAPTURE_DOCS.create,
    async (ctx) => {
      const capture = await createCapture(
        uploadServices(ctx.services),
        ctx.state.caller!.account.id,
        ctx.state.upload!.path,
        ctx.state.input.body as unknown as CaptureFields,
      );
      ctx.status = 201;
      ctx.body = { data: presentCapture(capture, (key) => ctx.services.media.url(key)) };
    },
  );

  api.patch(
    '/screenshots/:id',
    scoped('screenshots.write', 'write'),
    validate({ params: captureParams, body: capturePatchBody }),
    CAPTURE_DOCS.update,
    async (ctx) => {
      const capture = await updateCapture(
        ctx.services.knex,
        ctx.state.caller!.account.id,
        ctx.state.input.params.id as string,
        ctx.state.input.body as CaptureChanges,
      );
      ctx.body = { data: presentCapture(capture, (key) => ctx.services.media.url(key)) };
    },
  );

  api.delete(
    '/screenshots/:id',
    scoped('screenshots.write', 'write'),
    validate({ params: captureParams }),
    CAPTURE_DOCS.delete,
    async (ctx) => {
      const id = ctx.state.input.params.id as string;
      await deleteCapture(ctx.services.knex, ctx.state.caller!.account.id, id);
      ctx.body = { data: { id, deleted: true } };
    },
  );
}
