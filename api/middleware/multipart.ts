// Reads one uploaded file on the routes that take files. The file lands in a temporary folder and is
// removed when the request ends, whatever the route did with it; the client's declared type is kept only
// as a hint, because content is checked by decoding it.
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { tmpdir } from 'node:os';
import formidable, { errors as formidableErrors } from 'formidable';
import type { Middleware } from 'koa';
import { invalidRequest } from '../../shared/platform/errors.js';
import { fieldWithNul, nulRefused } from '../../shared/platform/validation/nul.js';
import type { AppState } from '../context.js';
import { withFacts } from '../openapi/route-facts.js';

/** What every upload route accepts at most (spec: images up to 15 MB). */
export const UPLOAD_LIMIT_BYTES = 15 * 1024 * 1024;

/**
 * The form reader every upload uses: one file of at most `maxBytes` written under `dir`, and a few small
 * fields beside it; an empty file is refused by the reader itself.
 */
export function uploadForm(dir: string, maxBytes = UPLOAD_LIMIT_BYTES) {
  return formidable({
    maxFiles: 1,
    maxFileSize: maxBytes,
    maxTotalFileSize: maxBytes,
    maxFields: 20,
    maxFieldsSize: 64 * 1024,
    allowEmptyFiles: false,
    minFileSize: 1,
    uploadDir: dir,
    keepExtensions: false,
  });
}

export interface MultipartOptions {
  field: string;
  maxBytes: number;
  tempDir?: string;
}

export function multipartFile(options: MultipartOptions): Middleware<AppState> {
  const middleware: Middleware<AppState> = async (ctx, next) => {
    if (!ctx.state.multipartPending) {
      throw invalidRequest(`Send the file as multipart/form-data in the field "${options.field}".`, {
        reason: 'unsupported_content_type',
      });
    }
    ctx.state.multipartPending = false;
    // A folder per request, removed at the end, so even a part written before an error leaves nothing.
    const dir = await mkdtemp(path.join(options.tempDir ?? tmpdir(), 'jogatina-upload-'));
    try {
      await readFile(ctx, next, options, dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
  return withFacts(middleware, { upload: { field: options.field, maxBytes: options.maxBytes } });
}

async function readFile(
  ctx: Parameters<Middleware<AppState>>[0],
  next: () => Promise<unknown>,
  options: MultipartOptions,
  dir: string,
) {
  const form = uploadForm(dir, options.maxBytes);
  let fields: formidable.Fields;
  let files: formidable.Files;
  try {
    [fields, files] = await form.parse(ctx.req);
  } catch (error) {
    throw uploadError(error as { code?: number }, options);
  }
  // No field but the file is used; a NUL in one is refused all the same, like in any other input.
  const withNul = fieldWithNul(fields, '');
  if (withNul !== null) throw nulRefused(withNul);
  const chosen = files[options.field]?.[0];
  if (!chosen) {
    throw invalidRequest(`The file is missing: send it in the field "${options.field}".`, {
      field: options.field,
      reason: 'missing',
    });
  }
  ctx.state.upload = {
    field: options.field,
    path: chosen.filepath,
    bytes: chosen.size,
    declaredType: chosen.mimetype ?? null,
    filename: chosen.originalFilename ?? null,
  };
  await next();
}

function uploadError(error: { code?: number }, options: MultipartOptions) {
  switch (error.code) {
    case formidableErrors.biggerThanMaxFileSize:
    case formidableErrors.biggerThanTotalMaxFileSize:
      return invalidRequest(`The file is larger than ${options.maxBytes} bytes.`, {
        field: options.field,
        reason: 'too_large',
      });
    case formidableErrors.noEmptyFiles:
    case formidableErrors.smallerThanMinFileSize:
      return invalidRequest('The file is empty.', { field: options.field, reason: 'invalid_image' });
    case formidableErrors.maxFilesExceeded:
      return invalidRequest('Send one file at a time.', { field: options.field, reason: 'too_many_files' });
    default:
      return invalidRequest('The multipart body could not be read.', { reason: 'malformed_body' });
  }
}
