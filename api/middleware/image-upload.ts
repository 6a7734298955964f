// The steps every image upload route shares after its access declaration: count the upload against the
// account's allowance of that kind of image, then read the one file of the multipart field `image` (up to
// 15 MB).
import type { Middleware } from 'koa';
import { spendImageUpload } from '../../shared/media/upload-allowance.js';
import type { AttemptRule } from '../../shared/platform/rate-limits/attempt-limiter.js';
import type { AppState } from '../context.js';
import { withFacts } from '../openapi/route-facts.js';
import { multipartFile, UPLOAD_LIMIT_BYTES } from './multipart.js';

/** Spends one use of `rule` (shared/media/upload-allowance.ts: layout images, or pictures and icons). */
export function countUpload(rule: AttemptRule): Middleware<AppState> {
  const middleware: Middleware<AppState> = async (ctx, next) => {
    await spendImageUpload(ctx.services.knex, rule, ctx.state.caller!.account.id);
    return next();
  };
  return withFacts(middleware, { errors: [`rate_limited:${rule.reason}`] });
}

export const imageFile = (): Middleware<AppState> => multipartFile({ field: 'image', maxBytes: UPLOAD_LIMIT_BYTES });
