// Turns ajv's first error into the spec's 400 `invalid_request`: `field` names the offending input and
// `reason` says what is wrong with it, from a small fixed vocabulary (see the docs/api-notes.md), with
// a sentence a person can act on. Raw ajv messages never reach a client.
import type { ErrorObject } from 'ajv';
import { invalidRequest, type ApiError } from '../errors.js';

export type ValidationReason =
  | 'missing'
  | 'wrong_type'
  | 'out_of_range'
  | 'too_short'
  | 'too_long'
  | 'not_allowed'
  | 'bad_format'
  | 'unknown_field'
  | 'duplicate'
  | 'invalid';

/**
 * `/layout/sections/0/id` → `layout.sections.0.id`; `root` names the whole input when the path is empty.
 * A bad item of a list names the list (`scopes`, not `scopes.2`): the list is the field a client sent.
 */
export function fieldName(instancePath: string, child: string | undefined, root: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) parts.push(child);
  else while (parts.length > 1 && /^\d+$/.test(parts[parts.length - 1])) parts.pop();
  return parts.length > 0 ? parts.join('.') : root;
}

const TYPE_WORDS: Record<string, string> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

function typeWords(type: unknown): string {
  const types = Array.isArray(type) ? type : [type];
  return types.map((t) => TYPE_WORDS[String(t)] ?? String(t)).join(' or ');
}

function range(schema: Record<string, unknown>): string {
  const min = schema.minimum ?? schema.exclusiveMinimum;
  const max = schema.maximum ?? schema.exclusiveMaximum;
  if (min !== undefined && max !== undefined) return `from ${min} to ${max}`;
  if (min !== undefined) return `at least ${min}`;
  return `at most ${max}`;
}

export function describeError(error: ErrorObject, root: string): ApiError {
  const schema = (error.parentSchema ?? {}) as Record<string, unknown>;
  const params = error.params as Record<string, unknown>;
  const say = (field: string, reason: ValidationReason, message: string) => invalidRequest(message, { field, reason });

  switch (error.keyword) {
    case 'required': {
      const field = fieldName(error.instancePath, String(params.missingProperty), root);
      return say(field, 'missing', `${field} is required.`);
    }
    case 'additionalProperties': {
      const field = fieldName(error.instancePath, String(params.additionalProperty), root);
      return say(field, 'unknown_field', `${field} is not a field of this request.`);
    }
  }

  const field = fieldName(error.instancePath, undefined, root);
  switch (error.keyword) {
    case 'type':
      return say(field, 'wrong_type', `${field} must be ${typeWords(params.type)}.`);
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const kind = schema.type === 'integer' ? 'an integer' : 'a number';
      return say(field, 'out_of_range', `${field} must be ${kind} ${range(schema)}.`);
    }
    case 'minLength':
      return say(field, 'too_short', `${field} must be at least ${params.limit} characters.`);
    case 'maxLength':
      return say(field, 'too_long', `${field} must be at most ${params.limit} characters.`);
    case 'minItems':
      return say(field, 'too_short', `${field} must hold at least ${params.limit} item(s).`);
    case 'maxItems':
      return say(field, 'too_long', `${field} must hold at most ${params.limit} items.`);
    case 'enum':
      return say(field, 'not_allowed', `${field} must be one of: ${(params.allowedValues as unknown[]).join(', ')}.`);
    case 'const':
      return say(field, 'not_allowed', `${field} must be ${JSON.stringify(params.allowedValue)}.`);
    case 'format':
      return say(field, 'bad_format', `${field} must be a valid ${params.format}.`);
    case 'pattern':
      return say(field, 'bad_format', `${field} does not have the expected form.`);
    case 'uniqueItems':
      return say(field, 'duplicate', `${field} must not repeat an item.`);
    default:
      return say(field, 'invalid', `${field} is not valid.`);
  }
}
