// Reads uploads on the routes that take files, through koa-body (which parses with formidable): one file
// of at most the route's size, and a few small fields beside it. The file lands in a temporary folder and
// is removed when the request ends, whatever the route did with it; the client's declared type is kept
// only as a hint, because content is checked by decoding it. koa-body's errors become the API's through
// its onError.
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { tmpdir } from 'node:os';
import { errors as formidableErrors, type File } from 'formidable';
import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { invalidRequest } from '../../shared/platform/errors.js';
import { fieldWithNul, nulRefused } from '../../shared/platform/validation/nul.js';
import type { AppContext, AppState } from '../context.js';
import { withFacts } from '../openapi/route-facts.js';

/** What every upload route accepts at most (spec: images up to 15 MB). */
export const UPLOAD_LIMIT_BYTES = 15 * 1024 * 1024;

/** A form's text fields as koa-body hands them over: one value, or a list when a field came twice. */
export type FormFields = Record<string, string | string[]>;

export interface ReadUpload {
  fields: FormFields;
  /** The file of `field`, or null when the form has none there. */
  file: File | null;
}

/**
 * Reads a multipart body under `dir`: one file of at most `maxBytes` in `field` and a few small fields (an
 * empty file is refused by the reader itself). A NUL in any field is refused, as in any other input.
 */
export async function readUpload(
  ctx: AppContext,
  dir: string,
  field: string,
  maxBytes: number,
  refusal: (error: { code?: number }) => Error = (error) => uploadError(error, field, maxBytes),
): Promise<ReadUpload> {
  // Made per request: formidable writes into this request's own folder.
  const parse = koaBody({
    multipart: true,
    json: false,
    urlencoded: false,
    text: false,
    formidable: {
      maxFiles: 1,
      maxFileSize: maxBytes,
      maxTotalFileSize: maxBytes,
      maxFields: 20,
      maxFieldsSize: 64 * 1024,
      allowEmptyFiles: false,
      minFileSize: 1,
      uploadDir: dir,
      keepExtensions: false,
    },
    onError: (error) => {
      throw refusal(error as { code?: number });
    },
  });
  await parse(ctx, async () => undefined);
  const fields = (ctx.request.body ?? {}) as FormFields;
  const withNul = fieldWithNul(fields, '');
  if (withNul !== null) throw nulRefused(withNul);
  const file = ctx.request.files?.[field];
  return { fields, file: (Array.isArray(file) ? file[0] : file) ?? null };
}

/**
 * Takes the request's multipart body (the body step left it unread; anything else is 400
 * `unsupported_content_type` with `refusal`) and runs `work` with a fresh folder for its upload, removed
 * after `work` whatever happens.
 */
export async function inUploadFolder(
  ctx: AppContext,
  refusal: string,
  work: (dir: string) => Promise<void>,
  parent = tmpdir(),
): Promise<void> {
  if (!ctx.state.multipartPending) throw invalidRequest(refusal, { reason: 'unsupported_content_type' });
  ctx.state.multipartPending = false;
  // A folder per request, removed at the end, so even a part written before an error leaves nothing.
  const dir = await mkdtemp(path.join(parent, 'jogatina-upload-'));
  try {
    await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The upload the route works with, kept in `ctx.state.upload`. */
export function keepUpload(ctx: AppContext, field: string, file: File): void {
  ctx.state.upload = {
    field,
    path: file.filepath,
    bytes: file.size,
    declaredType: file.mimetype ?? null,
    filename: file.originalFilename ?? null,
  };
}

export interface MultipartOptions {
  field: string;
  maxBytes: number;
  tempDir?: string;
}

export function multipartFile(options: MultipartOptions): Middleware<AppState> {
  const middleware: Middleware<AppState> = async (ctx, next) => {
    const refusal = `Send the file as multipart/form-data in the field "${options.field}".`;
    await inUploadFolder(
      ctx,
      refusal,
      async (dir) => {
        // No field but the file is used.
        const { file } = await readUpload(ctx, dir, options.field, options.maxBytes);
        if (!file) {
          throw invalidRequest(`The file is missing: send it in the field "${options.field}".`, {
            field: options.field,
            reason: 'missing',
          });
        }
        keepUpload(ctx, options.field, file);
        await next();
      },
      options.tempDir,
    );
  };
  return withFacts(middleware, { upload: { field: options.field, maxBytes: options.maxBytes } });
}

/** formidable's refusal as the API's; a route may answer its own reasons instead (Arcade's store media). */
function uploadError(error: { code?: number }, field: string, maxBytes: number) {
  switch (error.code) {
    case formidableErrors.biggerThanMaxFileSize:
    case formidableErrors.biggerThanTotalMaxFileSize:
      return invalidRequest(`The file is larger than ${maxBytes} bytes.`, { field, reason: 'too_large' });
    case formidableErrors.noEmptyFiles:
    case formidableErrors.smallerThanMinFileSize:
      return invalidRequest('The file is empty.', { field, reason: 'invalid_image' });
    case formidableErrors.maxFilesExceeded:
      return invalidRequest('Send one file at a time.', { field, reason: 'too_many_files' });
    default:
      return invalidRequest('The multipart body could not be read.', { reason: 'malformed_body' });
  }
}
