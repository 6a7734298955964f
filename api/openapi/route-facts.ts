// What a route's middleware says about the route, for the reference at GET /api/v1/openapi.json. Each
// middleware that shapes a request (the access declaration, the input schemas, the upload reader, an
// allowance) carries its own part as a property, and `doc()` adds the route's words. The document is
// built by walking the router and merging these parts, so it describes what the server enforces, not
// a second copy of it.
import type { Middleware } from 'koa';
import type { ErrorCode } from '../../shared/platform/errors.js';
import type { Allowance, Scope } from '../../shared/keys/scopes.js';
import type { SchemaObject } from '../../shared/platform/validation/ajv.js';

/** An error a route may answer: its code alone, or `code:reason` when the body carries a reason. */
export type ErrorRef = ErrorCode | `${ErrorCode}:${string}`;

export type AccessFacts =
  | { kind: 'scoped'; scope: Scope | null; allowance: Allowance; anonymous: boolean }
  | { kind: 'public'; allowance: Allowance | null }
  | {
      kind: 'session';
      allowance: Allowance | null;
      mfa: boolean;
      mfaVerified: boolean;
      recent: boolean;
      suspendedReason: string;
    };

export interface RouteDoc {
  summary: string;
  /** The rules a caller needs beyond what the schemas and the access declaration already say. */
  description?: string;
  /** Errors this route gives beyond those its access, input, body and upload steps give. */
  errors?: ErrorRef[];
  /** The success status; 200 unless said. */
  status?: number;
  /** Other success statuses the route answers with the same body, and when. */
  alsoAnswers?: Record<number, string>;
  /** The media type of a success that is not JSON (a stream, a key set, a file). */
  produces?: string;
  /** A success body, as the route answers it; it must validate against `response`. */
  example?: unknown;
  /**
   * The JSON Schema of the success body (every success status of the route answers it); shared shapes come
   * from `api/openapi/shapes/` as `$ref`s. Required for every JSON success.
   */
  response?: SchemaObject;
  /** Response headers worth naming (e.g. `Cache-Control`), with what they say. */
  headers?: Record<string, string>;
}

export interface RouteFacts {
  access?: AccessFacts;
  /** The route refuses requests that do not come from the site's own origin (sign-in service). */
  ownOrigin?: boolean;
  input?: { params?: SchemaObject; query?: SchemaObject; body?: SchemaObject };
  /** The body is refused with Arcade's `fields_invalid` rather than validation's reasons (validate.ts). */
  bodyRefusal?: 'fields_invalid';
  /**
   * Input a route reads and judges itself, with refusals of its own listed in its doc (Arcade's store-page
   * media: `media_invalid` naming the part): shown in the reference, never enforced or mapped to
   * validation's reasons.
   */
  ownInput?: {
    query?: SchemaObject;
    form?: { file: string; maxBytes: number; fields: Record<string, SchemaObject>; required: string[] };
  };
  upload?: { field: string; maxBytes: number };
  errors?: ErrorRef[];
  doc?: RouteDoc;
}

const FACTS = Symbol('route facts');

/** Attaches `facts` to a middleware (returned as is, so declarations stay one expression). */
export function withFacts<T extends object>(middleware: T, facts: RouteFacts): T {
  return Object.assign(middleware, { [FACTS]: facts });
}

export function factsOf(middleware: unknown): RouteFacts | undefined {
  return typeof middleware === 'function' ? (middleware as unknown as Record<symbol, RouteFacts>)[FACTS] : undefined;
}

/** Everything a route's middleware says, merged in order; errors accumulate. */
export function mergeFacts(stack: unknown[]): RouteFacts {
  const merged: RouteFacts = {};
  for (const middleware of stack) {
    const facts = factsOf(middleware);
    if (!facts) continue;
    const errors = [...(merged.errors ?? []), ...(facts.errors ?? []), ...(facts.doc?.errors ?? [])];
    Object.assign(merged, facts, { errors });
  }
  return merged;
}

/** Input the route judges itself, for the reference; it passes every request straight on. */
export function judgedByRoute<S>(input: NonNullable<RouteFacts['ownInput']>): Middleware<S> {
  return withFacts(((_ctx, next) => next()) as Middleware<S>, { ownInput: input });
}

/** The route's own words for the reference; it passes every request straight on. */
export function doc<S>(words: RouteDoc): Middleware<S> {
  return withFacts(((_ctx, next) => next()) as Middleware<S>, { doc: words });
}
