// The rules of people's content only the data can decide (DECISIONS: Refusals): each answers 400
// `invalid_request` reason `fields_invalid` naming the field, as `fieldsInvalid` builds it.
import { invalidRequest, type ApiError } from '../platform/errors.js';

/** How far ahead of the server's clock a time may be (clocks differ): 5 minutes. */
export const FUTURE_TOLERANCE_MS = 5 * 60_000;

export function fieldsInvalid(field: string, message: string): ApiError {
  return invalidRequest(message, { reason: 'fields_invalid', field });
}

/** Refuses a time more than 5 minutes ahead of `now`; null passes. */
export function refuseFuture(field: string, at: string | null | undefined, now = Date.now()): void {
  if (at == null) return;
  if (Date.parse(at) > now + FUTURE_TOLERANCE_MS) throw fieldsInvalid(field, `${field} is in the future.`);
}

/** Refuses an end before its start (both present). */
export function refuseEndBeforeStart(field: string, start: string | null, end: string | null | undefined): void {
  if (start == null || end == null) return;
  if (Date.parse(end) < Date.parse(start)) throw fieldsInvalid(field, `${field} is before the start.`);
}
