// The JSON bodies Arcade's routes read with the spec's own refusal (400 `fields_invalid`), shared by the
// route files so none imports another.
import { invalidRequest } from '../../../shared/platform/errors.js';
import type { AppContext } from '../../context.js';

/** The JSON body as an object whose members are all among `allowed` (else 400 `fields_invalid`). */
export function bodyWith(ctx: AppContext, allowed: string[]): Record<string, unknown> {
  const body = ctx.request.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalidRequest('Send a JSON object.', { reason: 'fields_invalid', field: 'body' });
  }
  const extra = Object.keys(body).find((key) => !allowed.includes(key));
  if (extra !== undefined) {
    throw invalidRequest(`${extra} is not a field here.`, { reason: 'fields_invalid', field: extra });
  }
  return body as Record<string, unknown>;
}
