// The one ajv instance. Schemas are compiled once, when a route is declared at start, never per request.
// It stops at the first error so the answer names one field, the first a reader would fix.
import { Ajv, type ValidateFunction, type SchemaObject } from 'ajv';
import formatsModule, { type FormatsPlugin } from 'ajv-formats';

const ajv = new Ajv({
  allErrors: false,
  // Errors then carry their schema, which the messages quote ("from 1 to 1000").
  verbose: true,
  strict: true,
  strictRequired: false,
  useDefaults: true,
  coerceTypes: false,
  removeAdditional: false,
});
// ajv-formats is CommonJS; under ESM its function is the default export's default.
const addFormats = (formatsModule as unknown as { default: FormatsPlugin }).default;
addFormats(ajv, ['uuid', 'date', 'date-time', 'email', 'uri']);

export type { SchemaObject, ValidateFunction };

export function compileSchema<T = unknown>(schema: SchemaObject): ValidateFunction<T> {
  return ajv.compile<T>(schema);
}
