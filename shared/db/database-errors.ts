// Database errors are turned into API errors in one place. Domains name their constraints here, so a
// unique index becomes the spec's 409 reason and a check constraint its 400, whichever query hit them.
import { conflict, invalidRequest, notFound, type ApiError } from '../errors.js';

interface PgError {
  code?: string;
  constraint?: string;
}

const byConstraint = new Map<string, () => ApiError>();

/** Names the API error a constraint stands for, e.g. `registerConstraint('reports_one_open', () => conflict(...))`. */
export function registerConstraint(name: string, toError: () => ApiError): void {
  byConstraint.set(name, toError);
}

/** The API error for a database error, or null when it is not one the caller caused. */
export function mapDatabaseError(error: unknown): ApiError | null {
  // Objection wraps the driver's error (db-errors); the PostgreSQL fields are on the original.
  const wrapped = error as { nativeError?: PgError } | undefined;
  const pgError = (wrapped?.nativeError ?? error) as PgError;
  if (typeof pgError?.code !== 'string') return null;
  const named = pgError.constraint ? byConstraint.get(pgError.constraint) : undefined;
  switch (pgError.code) {
    case '23505': // unique_violation
      return named?.() ?? conflict(undefined, {}, 'This already exists.');
    case '23514': // check_violation
      return named?.() ?? invalidRequest('A value is outside what is allowed.');
    case '23503': // foreign_key_violation: the thing referred to is gone
      return named?.() ?? notFound('Something this refers to does not exist.');
    case '22P02': // invalid_text_representation, e.g. a malformed uuid reaching a query
      return notFound();
    default:
      return named?.() ?? null;
  }
}
