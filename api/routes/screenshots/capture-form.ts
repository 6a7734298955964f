// Reads an upload's form: one file in `image` (up to 15 MB) and the capture's fields beside it, through the
// shared multipart reader (the same limits and refusals for the file), and judges the fields as validate()
// judges a JSON body: multipart carries text, so booleans arrive as `true`/`false` and numbers in decimal
// (DECISIONS: Fields and defaults), turned into what their schema asks for, and anything else stays text
// and fails the type check.
import type { Middleware } from 'koa';
import { invalidRequest } from '../../../shared/platform/errors.js';
import { compileSchema, type SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { describeError } from '../../../shared/platform/validation/describe-error.js';
import type { AppContext, AppState } from '../../context.js';
import {
  inUploadFolder,
  keepUpload,
  readUpload,
  UPLOAD_LIMIT_BYTES,
  type FormFields,
} from '../../middleware/multipart.js';
import { withFacts } from '../../openapi/route-facts.js';

const FILE = 'image';
const DECIMAL = /^-?\d{1,15}$/;

/** A form field as its schema asks for it; a field sent twice stays a list, and fails any schema. */
function fieldValue(value: string | string[], schema: SchemaObject | undefined): unknown {
  if (Array.isArray(value)) return value;
  if (schema?.type === 'integer') return DECIMAL.test(value) ? Number(value) : value;
  if (schema?.type === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
  return value;
}

function formBody(fields: FormFields, schema: SchemaObject): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, SchemaObject>;
  return Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, fieldValue(value, properties[name])]));
}

/** The form reader of a route: `fields` is the schema of the fields beside the file. */
export function captureForm(fields: SchemaObject): Middleware<AppState> {
  const check = compileSchema(fields);
  const middleware: Middleware<AppState> = async (ctx, next) => {
    await inUploadFolder(ctx, `Send multipart/form-data with the image in the field "${FILE}".`, async (dir) => {
      await readForm(ctx, dir, fields, check);
      await next();
    });
  };
  return withFacts(middleware, {
    // The fields' refusals are validation's, derived from the schema; the form is what the reference shows.
    input: { body: fields },
    upload: { field: FILE, maxBytes: UPLOAD_LIMIT_BYTES },
    ownInput: {
      form: {
        file: FILE,
        maxBytes: UPLOAD_LIMIT_BYTES,
        fields: fields.properties as Record<string, SchemaObject>,
        required: fields.required as string[],
      },
    },
  });
}

async function readForm(
  ctx: AppContext,
  dir: string,
  schema: SchemaObject,
  check: ReturnType<typeof compileSchema>,
): Promise<void> {
  const { fields, file } = await readUpload(ctx, dir, FILE, UPLOAD_LIMIT_BYTES);
  if (!file) {
    throw invalidRequest(`The image is missing: send it in the field "${FILE}".`, { field: FILE, reason: 'missing' });
  }
  const body = formBody(fields, schema);
  if (!check(body)) throw describeError(check.errors![0], 'body');
  ctx.state.input = { params: {}, query: {}, body };
  keepUpload(ctx, FILE, file);
}
