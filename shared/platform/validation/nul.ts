// U+0000 cannot be stored: PostgreSQL refuses it in text and jsonb, and a statement that meets it fails
// as a fault of ours (500). No field has a use for it, so it is refused wherever a request carries text,
// with the field named the way validation names fields (`bio`, `layout.sections.0.title`).
import { invalidRequest, type ApiError } from '../errors.js';

/** The first field (dotted path under `root`) whose key or text holds U+0000, or null. */
export function fieldWithNul(value: unknown, root: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? root : null;
  if (Array.isArray(value)) {
    // A list is the field a client sent (as validation names it): a bad item names the list.
    return value.some((item) => fieldWithNul(item, root) !== null) ? root : null;
  }
  if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      const name = root ? `${root}.${key}` : key;
      if (key.includes('\u0000')) return name;
      const found = fieldWithNul(inner, name);
      if (found !== null) return found;
    }
  }
  return null;
}

export function nulRefused(field: string): ApiError {
  return invalidRequest(`${field} holds a NUL character (U+0000), which no field may hold.`, {
    field,
    reason: 'bad_format',
  });
}
