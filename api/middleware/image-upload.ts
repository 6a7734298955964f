// The steps every image upload route shares after its access declaration: count the upload against the
// account's allowance, then read the one file of the multipart field `image` (up to 15 MB).
import type { Middleware } from 'koa';
import { IMAGE_UPLOADS, spendImageUpload } from '../../shared/media/upload-allowance.js';
import type { AppState } from '../context.js';
import { withFacts } from '../openapi/route-facts.js';
import { multipartFile, UPLOAD_LIMIT_BYTES } from './multipart.js';

export function countUpload(): Middleware<AppState> {
  const middleware: Middleware<AppState> = async (ctx, next) => {
    await spendImageUpload(ctx.services.knex, ctx.state.caller!.account.id);
    return next();
  };
  return withFacts(middleware, { errors: [`rate_limited:${IMAGE_UPLOADS.reason}`] });
}

export const imageFile = (): Middleware<AppState> => multipartFile({ field: 'image', maxBytes: UPLOAD_LIMIT_BYTES });
