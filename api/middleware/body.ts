// Reads JSON bodies (1 MB at most) for every route, through koa-body (which parses with co-body). Multipart
// bodies are left unread here: only a route that takes files reads them, with its own limits (see
// multipart.ts). Any other content type with a body is refused, so a client never has its form-encoded
// fields silently ignored. koa-body's errors become the API's through its onError. V8's JSON.parse does not
// recurse, so a deeply nested body parses; it is refused right after (shared/platform/validation/depth.ts).
import { koaBody } from 'koa-body';
import type { Middleware } from 'koa';
import { invalidRequest } from '../../shared/platform/errors.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../shared/platform/validation/depth.js';
import type { AppState } from '../context.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}

interface BodyError {
  type?: string;
  status?: number;
}

export function jsonBody(options: { limitBytes: number }): Middleware<AppState> {
  const parse = koaBody({
    json: true,
    // Every JSON type (`application/json`, `application/problem+json`, ...), and nothing else.
    jsonTypes: ['application/json', '+json'],
    jsonLimit: options.limitBytes,
    jsonStrict: true,
    urlencoded: false,
    text: false,
    multipart: false,
    parsedMethods: [...BODY_METHODS] as never,
    onError: (error) => {
      throw bodyError(error as BodyError, options.limitBytes);
    },
  });
  return async (ctx, next) => {
    ctx.request.body = undefined;
    if (!BODY_METHODS.has(ctx.method) || !hasBody(ctx.req.headers)) return next();
    if (ctx.is('multipart/form-data')) {
      ctx.state.multipartPending = true;
      return next();
    }
    if (!ctx.is('application/json', '+json')) {
      throw invalidRequest('Send the body as JSON with Content-Type: application/json.', {
        reason: 'unsupported_content_type',
      });
    }
    return parse(ctx, () => {
      // Before any step that walks the body (the NUL check, validation), which may recurse per level.
      if (nestsDeeperThan(ctx.request.body, MAX_JSON_DEPTH)) {
        throw invalidRequest(`The body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep.`, {
          reason: 'too_deep',
        });
      }
      return next();
    });
  };
}

function bodyError(error: BodyError, limitBytes: number) {
  switch (error.type) {
    case 'entity.too.large':
      return invalidRequest(`The body is larger than ${limitBytes} bytes.`, { reason: 'too_large' });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return invalidRequest('The body must be UTF-8 JSON.', { reason: 'unsupported_content_type' });
    case 'request.aborted':
    case 'request.size.invalid':
      return invalidRequest('The body ended before its declared length.', { reason: 'malformed_body' });
    default:
      if (error.status === 400 || error instanceof SyntaxError) {
        return invalidRequest('The body is not a valid JSON object or array.', { reason: 'malformed_json' });
      }
      return error;
  }
}
