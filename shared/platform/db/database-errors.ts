// Database errors are turned into API errors in one place. Domains name their constraints here, so a
// unique index becomes the spec's 409 reason and a check constraint its 400, whichever query hit them.
import { ApiError, conflict, invalidRequest, notFound } from '../errors.js';

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

/** Seconds a client is told to wait when the database cannot be reached (recovery takes about 2 s). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Socket errors of a connection that could not be made or was cut. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);
/**
 * SQLSTATEs of a server that is going away, not there yet, or not answering in time: class 08 (connection
 * exception) but protocol_violation (08P01: a statement sent with the wrong number of values, our bug,
 * not an outage), admin_shutdown, crash_shutdown, cannot_connect_now (starting up or in recovery),
 * too_many_connections, query_canceled (57014: the web's statement_timeout, timeouts.ts; nothing else
 * cancels our statements) and idle_in_transaction_session_timeout (25P03).
 */
const UNREACHABLE_STATES = /^(08(?!P01)...|57P01|57P02|57P03|53300|57014|25P03)$/;
/**
 * What node-postgres, pg-pool and knex say when a connection ends under a statement (the web's own watch
 * closes one that got no answer in time, timeouts.ts), cannot be opened in time, or none is free in time.
 */
const UNREACHABLE_MESSAGES =
  /Connection terminated|connection error and is not queryable|Timeout acquiring a connection|Query read timeout|timeout expired|timeout exceeded when trying to connect/;

/**
 * True when the error says the database could not be reached, not that a statement was wrong: the
 * request may succeed if repeated later, so it answers 503 `unavailable`, not 500.
 */
export function isDatabaseUnreachable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 3) return false;
  const failure = error as {
    code?: unknown;
    name?: unknown;
    message?: unknown;
    nativeError?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof failure.code === 'string' && (NETWORK_CODES.has(failure.code) || UNREACHABLE_STATES.test(failure.code)))
    return true;
  if (failure.name === 'KnexTimeoutError') return true;
  if (typeof failure.message === 'string' && UNREACHABLE_MESSAGES.test(failure.message)) return true;
  // Wrapped: Objection's nativeError, a cause, or the several attempts of an AggregateError (IPv4 and 6).
  const inner = [failure.nativeError, failure.cause, ...(Array.isArray(failure.errors) ? failure.errors : [])];
  return inner.some((item) => isDatabaseUnreachable(item, depth + 1));
}

/** 503 `unavailable` with Retry-After, for a database that cannot be reached. */
export function databaseUnavailable(): ApiError {
  return new ApiError(
    'unavailable',
    'The database cannot be reached right now; try again shortly.',
    { reason: 'database_unavailable', retry_after: DATABASE_RETRY_AFTER_SECONDS },
    { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
  );
}
