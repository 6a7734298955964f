// The words for writing the JSON Schemas of success answers (OpenAPI 3.1 speaks JSON Schema 2020-12), and
// the shapes several operations share: a shape made with `component()` is listed once under
// `components.schemas` and referenced with `$ref` wherever it is used. The shapes themselves live in
// `shapes/`, one module per area; a route's doc names its answer with `response`.
import type { SchemaObject } from '../../shared/platform/validation/ajv.js';

export type { SchemaObject };

const COMPONENTS = new Map<string, SchemaObject>();

/** The schema under its name in `components.schemas`, referenced where it is used. */
export function component(name: string, schema: SchemaObject): SchemaObject {
  if (COMPONENTS.has(name) && COMPONENTS.get(name) !== schema) throw new Error(`Two schemas are named ${name}.`);
  COMPONENTS.set(name, schema);
  return { $ref: `#/components/schemas/${name}` };
}

/** Every named shape, by name. */
export function namedSchemas(): Record<string, SchemaObject> {
  return Object.fromEntries([...COMPONENTS].sort(([a], [b]) => a.localeCompare(b)));
}

const described = (schema: SchemaObject, description?: string): SchemaObject =>
  description ? { ...schema, description } : schema;

export const string = (description?: string): SchemaObject => described({ type: 'string' }, description);
export const integer = (description?: string): SchemaObject => described({ type: 'integer' }, description);
export const number = (description?: string): SchemaObject => described({ type: 'number' }, description);
export const boolean = (description?: string): SchemaObject => described({ type: 'boolean' }, description);
/** An ISO 8601 instant. */
export const dateTime = (description?: string): SchemaObject =>
  described({ type: 'string', format: 'date-time' }, description);
/** A calendar date, `YYYY-MM-DD`. */
export const date = (description?: string): SchemaObject => described({ type: 'string', format: 'date' }, description);
export const uuid = (description?: string): SchemaObject => described({ type: 'string', format: 'uuid' }, description);
/** An absolute URL. */
export const uri = (description?: string): SchemaObject => described({ type: 'string', format: 'uri' }, description);
/** One of these strings. */
export const oneOf = (values: readonly string[], description?: string): SchemaObject =>
  described({ type: 'string', enum: [...values] }, description);
/** Exactly this value. */
export const constant = (value: string | number | boolean, description?: string): SchemaObject =>
  described({ const: value }, description);

/** The schema, or null. A plain type widens its `type` (and `enum`); anything else is `anyOf` with null. */
export function nullable(schema: SchemaObject): SchemaObject {
  const { type, enum: values } = schema as { type?: unknown; enum?: unknown[] };
  if (typeof type === 'string') {
    return { ...schema, type: [type, 'null'], ...(values ? { enum: [...values, null] } : {}) };
  }
  if ('const' in schema) {
    const { const: value, ...rest } = schema;
    return { ...rest, enum: [value, null] };
  }
  const { description, ...rest } = schema;
  return described({ anyOf: [rest, { type: 'null' }] }, description as string | undefined);
}

export const list = (items: SchemaObject, description?: string): SchemaObject =>
  described({ type: 'array', items }, description);

/** An object whose keys are ids or names, each holding `value`. */
export const map = (value: SchemaObject, description?: string): SchemaObject =>
  described({ type: 'object', additionalProperties: value }, description);

/** A free-form object: its members are not fixed here (a layout's block options, a timeline entry's data). */
export const anyObject = (description?: string): SchemaObject =>
  described({ type: 'object', additionalProperties: true }, description);

export interface ObjectOptions {
  /** Members that may be absent; every other member is always there (null where its schema says). */
  optional?: string[];
  description?: string;
}

/** An object with these members, all required unless named in `optional`. */
export function object(properties: Record<string, SchemaObject>, options: ObjectOptions = {}): SchemaObject {
  const optional = new Set(options.optional ?? []);
  for (const name of optional) {
    if (!(name in properties)) throw new Error(`${name} is optional but not a member.`);
  }
  const required = Object.keys(properties).filter((name) => !optional.has(name));
  return described({ type: 'object', ...(required.length ? { required } : {}), properties }, options.description);
}

/** `{ data }`: every success but the key set and this reference. */
export const answer = (data: SchemaObject, more: Record<string, SchemaObject> = {}, optional?: string[]) =>
  object({ data, ...more }, { optional });
