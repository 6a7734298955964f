// Query strings and path segments arrive as text. Before validation each value is turned into what its
// schema asks for, strictly: "12" becomes 12 but "12.0", "1e3", "0x10" and "" stay text and then fail the
// type check, so nothing a client did not mean is accepted. Comma-separated lists become arrays.
import type { SchemaObject } from './ajv.js';

type Raw = string | string[] | undefined;

const INTEGER = /^-?\d{1,15}$/;
const NUMBER = /^-?\d{1,15}(\.\d{1,15})?$/;

export function coerceValue(value: string, schema: SchemaObject | undefined): unknown {
  switch (schema?.type) {
    case 'integer':
      return INTEGER.test(value) ? Number(value) : value;
    case 'number':
      return NUMBER.test(value) ? Number(value) : value;
    case 'boolean':
      if (value === 'true' || value === '1') return true;
      if (value === 'false' || value === '0') return false;
      return value;
    case 'array':
      return value === '' ? [] : value.split(',').map((item) => coerceValue(item.trim(), schema.items as SchemaObject));
    default:
      return value;
  }
}

/** Coerces each known parameter; unknown ones are dropped (unknown query parameters are ignored). */
export function coerceParameters(raw: Record<string, Raw>, schema: SchemaObject): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, SchemaObject>;
  const out: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const value = raw[name];
    if (value === undefined) continue;
    // A parameter given twice stays an array of text, and fails any schema that wants one value.
    out[name] = Array.isArray(value) ? value : coerceValue(value, property);
  }
  return out;
}
