// The building blocks of Arcade's body rules (store page draft, release): each check either returns the
// value as stored or throws 400 `invalid_request` reason `fields_invalid` naming the field, so a body is
// judged field by field in the spec table's order and the first refused field is the one reported.
import { invalidRequest, type ApiError } from '../platform/errors.js';

export const ORIENTATIONS = ['any', 'landscape', 'portrait'] as const;
export type Orientation = (typeof ORIENTATIONS)[number];

export const PLATFORMS = ['desktop', 'mobile'] as const;
export type Platform = (typeof PLATFORMS)[number];

export function fieldsInvalid(field: string, message: string): ApiError {
  return invalidRequest(message, { reason: 'fields_invalid', field });
}

/** A JSON object (not an array, not null), or 400 naming `field`. */
export function objectAt(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw fieldsInvalid(field, `${field} must be an object.`);
  }
  return value as Record<string, unknown>;
}

/** Reads a required field: a missing one is refused where the table lists it (`prefix` for nested ones). */
export function requiredField(body: Record<string, unknown>, field: string, prefix = ''): unknown {
  if (!Object.hasOwn(body, field)) throw fieldsInvalid(prefix + field, `${prefix + field} is required.`);
  return body[field];
}

/** A field outside the table is refused once every field of the table passed (`prefix` for nested ones). */
export function refuseUnknownFields(body: Record<string, unknown>, fields: readonly string[], prefix = ''): void {
  const unknown = Object.keys(body).find((key) => !fields.includes(key));
  if (unknown !== undefined) throw fieldsInvalid(prefix + unknown, `${prefix + unknown} is not a field of this body.`);
}

/** Counted as people count characters: code points of the NFC form. */
export function codePoints(text: string): number {
  return [...text].length;
}

// Controls, bidirectional overrides and zero-width characters reorder or hide what a reader sees; a name
// shown in the store must read as it is stored.
const INVISIBLE = /[\p{Cc}\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;
// Long texts keep their line breaks and tabs; NUL and other controls have no place (PostgreSQL refuses NUL).
const CONTROL_BUT_LAYOUT = /(?![\t\n\r])\p{Cc}/u;

/**
 * A one-line text: NFC, `min` to `max` characters, no space at either end (refused, not trimmed: what is
 * stored is what was sent) and no invisible characters.
 */
export function lineText(value: unknown, field: string, min: number, max: number): string {
  if (typeof value !== 'string') throw fieldsInvalid(field, `${field} must be a string.`);
  const text = value.normalize('NFC');
  const length = codePoints(text);
  if (length < min || length > max) {
    const range = min === 0 ? `at most ${max}` : `from ${min} to ${max}`;
    throw fieldsInvalid(field, `${field} must be ${range} characters long.`);
  }
  if (text !== text.trim()) throw fieldsInvalid(field, `${field} may not start or end with a space.`);
  if (INVISIBLE.test(text)) {
    throw fieldsInvalid(field, `${field} may not hold control, bidirectional or zero-width characters.`);
  }
  return text;
}

/** A multi-line text: NFC, at most `max` characters, line breaks and tabs allowed, other controls not. */
export function longText(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string') throw fieldsInvalid(field, `${field} must be a string.`);
  const text = value.normalize('NFC');
  if (codePoints(text) > max) throw fieldsInvalid(field, `${field} must be at most ${max} characters long.`);
  if (CONTROL_BUT_LAYOUT.test(text)) throw fieldsInvalid(field, `${field} may not hold control characters.`);
  return text;
}

export function oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw fieldsInvalid(field, `${field} must be one of: ${allowed.join(', ')}.`);
  }
  return value as T;
}

/**
 * A list of distinct items from `allowed`, `min` to `max` long. A wrong or repeated item is named by its
 * index (`tags.2`); a wrong list as a whole by the list's name.
 */
export function subsetOf<T extends string>(
  value: unknown,
  field: string,
  allowed: readonly T[],
  min: number,
  max: number,
): T[] {
  if (!Array.isArray(value)) throw fieldsInvalid(field, `${field} must be a list.`);
  if (value.length < min) throw fieldsInvalid(field, `${field} must hold at least ${min} item(s).`);
  if (value.length > max) throw fieldsInvalid(field, `${field} must hold at most ${max} items.`);
  const seen = new Set<T>();
  value.forEach((item, index) => {
    const chosen = oneOf(item, `${field}.${index}`, allowed);
    if (seen.has(chosen)) throw fieldsInvalid(`${field}.${index}`, `${field} must not repeat ${chosen}.`);
    seen.add(chosen);
  });
  return [...seen];
}

/** desktop, mobile or both, at least one (store page draft and release alike). */
export function platformsAt(value: unknown, field = 'platforms'): Platform[] {
  return subsetOf(value, field, PLATFORMS, 1, PLATFORMS.length);
}

export function orientationAt(value: unknown, field = 'orientation'): Orientation {
  return oneOf(value, field, ORIENTATIONS);
}
