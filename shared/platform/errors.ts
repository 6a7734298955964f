// The one catalogue of API errors. Every error body the service sends is built here, so the shape
// `{ error: { code, message, ...members } }` and the codes of the spec stay the same everywhere.

export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'invalid_key'
  | 'insufficient_scope'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'rate_limited'
  | 'internal'
  | 'unavailable';

const STATUS: Record<ErrorCode, number> = {
  invalid_request: 400,
  unauthorized: 401,
  invalid_key: 401,
  insufficient_scope: 403,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
};

/** Every code, in the catalogue's order (the reference lists them). */
export const ERROR_CODES = Object.keys(STATUS) as ErrorCode[];

export function statusOf(code: ErrorCode): number {
  return STATUS[code];
}

const DEFAULT_MESSAGE: Record<ErrorCode, string> = {
  invalid_request: 'The request is not valid.',
  unauthorized: 'This route needs an API key or a signed-in session.',
  invalid_key: 'The API key is not valid.',
  insufficient_scope: 'The API key lacks the scope this route needs.',
  forbidden: 'This caller may not do this.',
  not_found: 'Nothing was found here.',
  method_not_allowed: 'This route does not take that method.',
  conflict: 'The request conflicts with the current state.',
  rate_limited: 'Too many requests; try again later.',
  internal: 'Something went wrong on our side.',
  unavailable: 'The service cannot answer right now.',
};

/** Messages for reasons shared by several routes; a factory's own message wins over these. */
const REASON_MESSAGE: Record<string, string> = {
  malformed_json: 'The body is not valid JSON.',
  unsupported_content_type: 'The body must be JSON (application/json) here.',
  too_large: 'The body is larger than this route accepts.',
  mfa_required: 'This session must pass its second factor first.',
  reauthentication_required: 'Sign in again: this needs a sign-in from the last 15 minutes.',
  too_many_attempts: 'Too many attempts; wait before trying again.',
  busy: 'Processing is full right now; try again shortly.',
};

/** Extra members the spec allows beside code and message. */
export interface ErrorMembers {
  reason?: string;
  field?: string;
  scope?: string;
  detail?: unknown;
  version?: number;
  issues?: unknown[];
  limit?: number;
  count?: number;
  bytes_limit?: number;
  bytes?: number;
  retry_after?: number;
  second_factor?: boolean;
  /** The thing a conflict is about (409 `session_running`: the live session). */
  id?: string;
  /** When the next rename is allowed (409 on a rename too soon). */
  next_change_at?: string;
  /** A wallet's minerals and what was asked of them (409 `insufficient_minerals`). */
  balance?: number;
  cost?: number;
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string } & ErrorMembers;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly members: ErrorMembers;
  /** Response headers that belong to the error, e.g. `Allow` or `Retry-After`. */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message?: string, members: ErrorMembers = {}, headers: Record<string, string> = {}) {
    // An ApiError is an answer, not a fault: skipping the stack trace keeps refusals cheap on hot paths.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message ?? (members.reason && REASON_MESSAGE[members.reason]) ?? DEFAULT_MESSAGE[code]);
    Error.stackTraceLimit = limit;
    this.name = 'ApiError';
    this.code = code;
    this.members = members;
    this.status = STATUS[code];
    this.headers = headers;
  }

  /** A few sign-in service answers have a body the spec fixes literally (rule 11 of Authentication). */
  private literalBody: object | null = null;

  withLiteralBody(body: object): this {
    this.literalBody = body;
    return this;
  }

  body(): ErrorBody {
    if (this.literalBody) return this.literalBody as ErrorBody;
    const members = Object.fromEntries(Object.entries(this.members).filter(([, v]) => v !== undefined));
    return { error: { code: this.code, message: this.message, ...members } };
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

// ---- Factories: the only way code makes an error answer. ----

export function invalidRequest(message?: string, members: ErrorMembers = {}): ApiError {
  return new ApiError('invalid_request', message, members);
}

export function unauthorized(message?: string, reason?: string): ApiError {
  return new ApiError('unauthorized', message, { reason });
}

/** Unknown, revoked, expired and malformed keys answer this same body on purpose. */
export function invalidKey(): ApiError {
  return new ApiError('invalid_key');
}

export function insufficientScope(scope: string): ApiError {
  return new ApiError('insufficient_scope', `The API key lacks the scope ${scope}.`, { scope });
}

export function forbidden(reason?: string, members: Omit<ErrorMembers, 'reason'> = {}, message?: string): ApiError {
  return new ApiError('forbidden', message, { reason, ...members });
}

export function notFound(message?: string, reason?: string): ApiError {
  return new ApiError('not_found', message, { reason });
}

export function methodNotAllowed(allowed: string[]): ApiError {
  const list = allowed.join(', ');
  return new ApiError('method_not_allowed', `This route takes ${list}.`, {}, { Allow: list });
}

export function conflict(reason?: string, members: Omit<ErrorMembers, 'reason'> = {}, message?: string): ApiError {
  return new ApiError('conflict', message, { reason, ...members });
}

export function rateLimited(retryAfterSeconds: number, reason?: string, message?: string): ApiError {
  const retryAfter = Math.max(1, Math.ceil(retryAfterSeconds));
  return new ApiError(
    'rate_limited',
    message,
    { reason, retry_after: retryAfter },
    { 'Retry-After': String(retryAfter) },
  );
}

export function internal(reason?: string, message?: string): ApiError {
  return new ApiError('internal', message, { reason });
}

export function unavailable(message?: string, detail?: unknown): ApiError {
  return new ApiError('unavailable', message, { detail });
}

/**
 * Authentication rule 11, sign-in service routes of an account without a password once the session is
 * older than 15 minutes: the spec's body `{ code: RECENT_SIGN_IN_REQUIRED, message }`, with our usual
 * `error` member beside it so clients reading either shape understand it.
 */
export function recentSignInRequired(): ApiError {
  const error = forbidden(
    'reauthentication_required',
    { second_factor: false },
    'Sign in again: this needs a sign-in from the last 15 minutes.',
  );
  return error.withLiteralBody({ code: 'RECENT_SIGN_IN_REQUIRED', message: error.message, error: error.body().error });
}

/** Authentication rule 11 for `POST /api/account/password`: the spec's literal body. */
export function firstPasswordReauthenticationRequired(): ApiError {
  const error = forbidden('reauthentication_required', { second_factor: false });
  return error.withLiteralBody({ error: 'reauthentication_required', second_factor: false });
}
