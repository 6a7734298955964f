// The errors a route gives because of how it is declared, before its handler runs: its access declaration
// (keys, scopes, allowances, sessions, suspension), the JSON body step, its input schemas (each keyword
// maps to one reason of describe-error.ts) and its upload reader. A route's doc adds only its own.
import type { ValidationReason } from '../../shared/platform/validation/describe-error.js';
import type { SchemaObject } from '../../shared/platform/validation/ajv.js';
import { demandsSecondFactor } from '../../shared/auth/session-rules.js';
import { IDEMPOTENCY_ERRORS, takesIdempotencyKey } from '../middleware/idempotency.js';
import type { ErrorRef, RouteFacts } from './route-facts.js';

const KEYWORD_REASON: Record<string, ValidationReason> = {
  required: 'missing',
  type: 'wrong_type',
  minimum: 'out_of_range',
  maximum: 'out_of_range',
  exclusiveMinimum: 'out_of_range',
  exclusiveMaximum: 'out_of_range',
  minLength: 'too_short',
  minItems: 'too_short',
  maxLength: 'too_long',
  maxItems: 'too_long',
  enum: 'not_allowed',
  const: 'not_allowed',
  format: 'bad_format',
  pattern: 'bad_format',
  uniqueItems: 'duplicate',
  oneOf: 'invalid',
  anyOf: 'invalid',
  not: 'invalid',
  if: 'invalid',
  dependentRequired: 'invalid',
  minProperties: 'invalid',
  maxProperties: 'invalid',
  multipleOf: 'invalid',
};

/** The validation reasons a schema can answer, from the keywords it uses anywhere inside it. */
export function validationReasons(schema: unknown, into = new Set<ValidationReason>()): Set<ValidationReason> {
  if (Array.isArray(schema)) {
    for (const item of schema) validationReasons(item, into);
  } else if (schema && typeof schema === 'object') {
    const node = schema as SchemaObject;
    for (const [keyword, value] of Object.entries(node)) {
      if (keyword === 'additionalProperties' && value === false) into.add('unknown_field');
      const reason = KEYWORD_REASON[keyword];
      // `required: []` and `properties` named like keywords are not keywords at work.
      if (reason && !(keyword === 'required' && Array.isArray(value) && value.length === 0)) into.add(reason);
      if (keyword === 'properties' || keyword === 'patternProperties' || keyword === '$defs') {
        for (const child of Object.values(value as object)) validationReasons(child, into);
      } else if (typeof value === 'object' && !DATA_KEYWORDS.has(keyword)) {
        validationReasons(value, into);
      }
    }
  }
  return into;
}

/** Keywords whose values are data, not schemas: never read as keywords at work. */
const DATA_KEYWORDS = new Set(['default', 'const', 'enum', 'examples', 'example', 'required', 'description', 'title']);

const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/** The JSON body step runs on every request with a body to these methods (api/middleware/body.ts). */
const BODY_ERRORS: ErrorRef[] = [
  'invalid_request:malformed_json',
  'invalid_request:malformed_body',
  'invalid_request:too_large',
  'invalid_request:too_deep',
  'invalid_request:unsupported_content_type',
];

function accessErrors(method: string, path: string, facts: RouteFacts): ErrorRef[] {
  const access = facts.access;
  // Every route resolves a key when one is sent: a bad one is 401 even on public routes.
  const errors: ErrorRef[] = ['invalid_key'];
  if (facts.ownOrigin) errors.push('forbidden', 'forbidden:cross_origin');
  if (!access) return errors;
  // Every declaration refuses a write under /api/v1 from a session owing its second factor.
  if (demandsSecondFactor(method, path)) errors.push('forbidden:mfa_required');
  if (access.allowance) errors.push('rate_limited');
  switch (access.kind) {
    case 'scoped':
      if (!access.anonymous) errors.push('unauthorized');
      if (access.scope) errors.push('insufficient_scope');
      if (access.allowance === 'write') errors.push('forbidden:suspended');
      break;
    case 'session':
      errors.push('unauthorized', 'forbidden');
      if (access.mfa || access.mfaVerified) errors.push('forbidden:mfa_required');
      if (access.recent) errors.push('forbidden:reauthentication_required');
      // A suspended account's session may still DELETE (end sessions, take down what is its own), and a key
      // is refused before suspension is asked, so DELETE never answers it here.
      if (access.allowance === 'write' && method !== 'delete') errors.push(`forbidden:${access.suspendedReason}`);
      break;
    case 'public':
      break;
  }
  return errors;
}

/** Every error the route may answer: derived from its declaration, then its own; no repeats. */
export function routeErrors(method: string, path: string, facts: RouteFacts): ErrorRef[] {
  // Every route refuses a NUL character in its path, query or body at the edge (api/middleware/refuse-nul.ts).
  const errors = [...accessErrors(method, path, facts), 'invalid_request:bad_format' as const];
  if (BODY_METHODS.has(method)) errors.push(...BODY_ERRORS);
  const reasons = new Set<ValidationReason>();
  for (const [part, schema] of Object.entries(facts.input ?? {})) {
    if (part === 'body' && facts.bodyRefusal === 'fields_invalid') continue;
    validationReasons(schema, reasons);
  }
  for (const reason of reasons) errors.push(`invalid_request:${reason}`);
  if (facts.input?.body && facts.bodyRefusal === 'fields_invalid') errors.push('invalid_request:fields_invalid');
  if (facts.upload) {
    errors.push(
      'invalid_request:missing',
      'invalid_request:too_large',
      'invalid_request:invalid_image',
      'invalid_request:too_many_files',
    );
  }
  // Any route that reads the database answers 503 while it cannot be reached.
  errors.push(...(facts.errors ?? []), 'internal', 'unavailable:database_unavailable');
  // Every POST under /api/v1 takes an Idempotency-Key (api/middleware/idempotency.ts).
  if (takesIdempotencyKey(method, path)) errors.push(...IDEMPOTENCY_ERRORS);
  return [...new Set(errors)];
}
