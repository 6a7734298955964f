// Maps anything thrown while answering to the API error it stands for (see request-frame.ts).
import {
  databaseUnavailable,
  isDatabaseUnreachable,
  mapDatabaseError,
} from '../../shared/platform/db/database-errors.js';
import { internal, invalidRequest, isApiError, notFound, type ApiError } from '../../shared/platform/errors.js';

interface HttpLikeError {
  status?: number;
  expose?: boolean;
}

export function toApiError(error: unknown): ApiError {
  if (isApiError(error)) return error;
  if (isDatabaseUnreachable(error)) return databaseUnavailable();
  const fromDatabase = mapDatabaseError(error);
  if (fromDatabase) return fromDatabase;
  // Errors raised by Koa and its router carry an HTTP status; keep the meaning, use our shape.
  const http = error as HttpLikeError;
  if (http?.expose && typeof http.status === 'number') {
    if (http.status === 404) return notFound();
    if (http.status === 413) return invalidRequest(undefined, { reason: 'too_large' });
    if (http.status === 415) return invalidRequest(undefined, { reason: 'unsupported_content_type' });
    if (http.status >= 400 && http.status < 500) return invalidRequest();
  }
  return internal();
}
