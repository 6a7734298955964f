// Reads an upload's form: one file in `image` (up to 15 MB) and the capture's fields beside it. The shared
// multipart reader keeps no fields, so this one reads both, with the same limits and the same refusals for
// the file, and judges the fields as validate() judges a JSON body: multipart carries text, so booleans
// arrive as `true`/`false` and numbers in decimal (DECISIONS: Fields and defaults), turned into what their
// schema asks for, and anything else stays text and fails the type check.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type formidable from 'formidable';
import { errors as formidableErrors } from 'formidable';
import type { Middleware } from 'koa';
import { invalidRequest } from '../../../shared/platform/errors.js';
import { compileSchema, type SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { describeError } from '../../../shared/platform/validation/describe-error.js';
import { fieldWithNul, nulRefused } from '../../../shared/platform/validation/nul.js';
import type { AppContext, AppState } from '../../context.js';
import { UPLOAD_LIMIT_BYTES, uploadForm } from '../../middleware/multipart.js';
import { withFacts } from '../../openapi/route-facts.js';

const FILE = 'image';
const DECIMAL = /^-?\d{1,15}$/;

/** A form field as its schema asks for it; a field sent twice stays a list, and fails any schema. */
function fieldValue(values: string[], schema: SchemaObject | undefined): unknown {
  if (values.length !== 1) return values;
  const [value] = values;
  if (schema?.type === 'integer') return DECIMAL.test(value) ? Number(value) : value;
  if (schema?.type === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
  return value;
}

function formBody(fields: formidable.Fields, schema: SchemaObject): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, SchemaObject>;
  return Object.fromEntries(
    Object.entries(fields).map(([name, values]) => [name, fieldValue(values ?? [], properties[name])]),
  );
}

/** The form reader of a route: `fields` is the schema of the fields beside the file. */
export function captureForm(fields: SchemaObject): Middleware<AppState> {
  const check = compileSchema(fields);
  const middleware: Middleware<AppState> = async (ctx, next) => {
    if (!ctx.state.multipartPending) {
      throw invalidRequest(`Send multipart/form-data with the image in the field "${FILE}".`, {
        reason: 'unsupported_content_type',
      });
    }
    ctx.state.multipartPending = false;
    // A folder per request, removed at the end, so even a part written before an error leaves nothing.
    const dir = await mkdtemp(path.join(tmpdir(), 'jogatina-upload-'));
    try {
      await readForm(ctx, dir, fields, check);
      await next();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
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
  const form = uploadForm(dir);
  let fields: formidable.Fields;
  let files: formidable.Files;
  try {
    [fields, files] = await form.parse(ctx.req);
  } catch (error) {
    throw formError(error as { code?: number });
  }
  const withNul = fieldWithNul(fields, '');
  if (withNul !== null) throw nulRefused(withNul);
  const file = files[FILE]?.[0];
  if (!file) {
    throw invalidRequest(`The image is missing: send it in the field "${FILE}".`, { field: FILE, reason: 'missing' });
  }
  const body = formBody(fields, schema);
  if (!check(body)) throw describeError(check.errors![0], 'body');
  ctx.state.input = { params: {}, query: {}, body };
  ctx.state.upload = {
    field: FILE,
    path: file.filepath,
    bytes: file.size,
    declaredType: file.mimetype ?? null,
    filename: file.originalFilename ?? null,
  };
}

function formError(error: { code?: number }) {
  switch (error.code) {
    case formidableErrors.biggerThanMaxFileSize:
    case formidableErrors.biggerThanTotalMaxFileSize:
      return invalidRequest(`The file is larger than ${UPLOAD_LIMIT_BYTES} bytes.`, {
        field: FILE,
        reason: 'too_large',
      });
    case formidableErrors.noEmptyFiles:
    case formidableErrors.smallerThanMinFileSize:
      return invalidRequest('The file is empty.', { field: FILE, reason: 'invalid_image' });
    case formidableErrors.maxFilesExceeded:
      return invalidRequest('Send one file at a time.', { field: FILE, reason: 'too_many_files' });
    default:
      return invalidRequest('The multipart body could not be read.', { reason: 'malformed_body' });
  }
}
