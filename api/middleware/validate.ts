// Declares a route's input: path parameters, query and JSON body, each a JSON Schema compiled once when
// the route is declared. The handler reads the checked, coerced values from `ctx.state.input`.
import type { Middleware } from 'koa';
import { Ajv, type ErrorObject } from 'ajv';
import formatsModule, { type FormatsPlugin } from 'ajv-formats';
import { invalidRequest } from '../../shared/platform/errors.js';
import { compileSchema, type SchemaObject, type ValidateFunction } from '../../shared/platform/validation/ajv.js';
import { coerceParameters } from '../../shared/platform/validation/coerce.js';
import { describeError } from '../../shared/platform/validation/describe-error.js';
import type { AppContext, AppState } from '../context.js';
import { withFacts } from '../openapi/route-facts.js';

export interface InputSchemas {
  params?: SchemaObject;
  query?: SchemaObject;
  body?: SchemaObject;
}

/**
 * A body refused the way Arcade's routes refuse theirs (spec arcade.md: Errors): 400 `invalid_request` reason
 * `fields_invalid` with `field` naming the first refused field (dotted, `tags.2`), unknown fields before the
 * others, then in the order the schema lists its members. A body that is not a JSON object is `field` `body`.
 */
export interface FieldsInvalid {
  /**
   * Per member, the route's own rule for it, which throws the answer the spec gives for that member
   * (`nickname_invalid`, `url_invalid`, 404 `app_not_found`). When the schema refuses a body (unknown fields
   * aside, refused first), the rules judge the members in the schema's order up to the first refused one, and
   * the first rule that throws gives the answer; else `fields_invalid` names the refused member.
   */
  rules?: Record<string, (value: unknown, ctx: AppContext) => unknown>;
  /**
   * The body's own rules, judging the whole body field by field (a store page's table order): asked first when
   * the schema refuses, so the answer is the one those rules give.
   */
  judge?: (body: unknown, ctx: AppContext) => unknown;
}

export interface ValidateOptions {
  /** Refuse the body with `fields_invalid` (Arcade) instead of validation's reasons. */
  fieldsInvalid?: FieldsInvalid;
}

function check(validator: ValidateFunction, value: unknown, root: string): void {
  if (!validator(value)) throw describeError(validator.errors![0], root);
}

// Arcade's bodies are judged on every error at once, to name the field the spec's order puts first.
const everyError = new Ajv({ allErrors: true, strict: true, strictRequired: false, coerceTypes: false });
(formatsModule as unknown as { default: FormatsPlugin }).default(everyError, [
  'uuid',
  'date',
  'date-time',
  'email',
  'uri',
]);

/** The body member an error is about, and its dotted field (`description.en`, `tags.2`). */
function fieldOf(error: ErrorObject): { member: string; field: string } {
  const steps = error.instancePath
    .split('/')
    .slice(1)
    .map((step) => step.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  const child = error.keyword === 'required' ? params.missingProperty : params.additionalProperty;
  if (child !== undefined && (error.keyword === 'required' || error.keyword === 'additionalProperties')) {
    steps.push(child);
  }
  return { member: steps[0] ?? 'body', field: steps.length ? steps.join('.') : 'body' };
}

function fieldsInvalidCheck(schema: SchemaObject, options: FieldsInvalid) {
  const validator = everyError.compile(schema);
  const order = Object.keys((schema.properties ?? {}) as object);
  return (ctx: AppContext, body: unknown): void => {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      options.judge?.(body, ctx);
      throw invalidRequest('Send a JSON object.', { reason: 'fields_invalid', field: 'body' });
    }
    if (validator(body)) return;
    options.judge?.(body, ctx);
    const refused = validator.errors!.map(fieldOf);
    const keys = Object.keys(body);
    const unknown = refused
      .filter((at) => !order.includes(at.member))
      .sort((a, b) => keys.indexOf(a.member) - keys.indexOf(b.member))[0];
    if (unknown)
      throw invalidRequest(`${unknown.field} is not a field here.`, { reason: 'fields_invalid', field: unknown.field });
    const first = refused.sort((a, b) => order.indexOf(a.member) - order.indexOf(b.member))[0];
    for (const member of order.slice(0, order.indexOf(first.member) + 1)) {
      options.rules?.[member]?.((body as Record<string, unknown>)[member], ctx);
    }
    throw invalidRequest(`${first.field} is not valid here.`, { reason: 'fields_invalid', field: first.field });
  };
}

export function validate(schemas: InputSchemas, options: ValidateOptions = {}): Middleware<AppState> {
  const params = schemas.params && compileSchema(schemas.params);
  const query = schemas.query && compileSchema(schemas.query);
  const body = schemas.body && !options.fieldsInvalid && compileSchema(schemas.body);
  const arcadeBody = schemas.body && options.fieldsInvalid && fieldsInvalidCheck(schemas.body, options.fieldsInvalid);

  const middleware: Middleware<AppState> = async (ctx, next) => {
    const input = { params: {}, query: {}, body: {} } as AppState['input'];
    if (params) {
      input.params = coerceParameters(
        (ctx as unknown as { params: Record<string, string> }).params ?? {},
        schemas.params!,
      );
      check(params, input.params, 'path');
    }
    if (query) {
      input.query = coerceParameters(ctx.query, schemas.query!);
      check(query, input.query, 'query');
    }
    if (body) {
      if (ctx.state.multipartPending) {
        throw invalidRequest('Send the body as JSON with Content-Type: application/json.', {
          reason: 'unsupported_content_type',
        });
      }
      // No body at all reads as {}, so the answer names the first missing field instead of "body".
      const value = ctx.request.body === undefined ? {} : ctx.request.body;
      check(body, value, 'body');
      input.body = value as Record<string, unknown>;
    }
    // Arcade's bodies answer a form sent instead as any other non-object: `fields_invalid` naming `body`.
    if (arcadeBody) {
      arcadeBody(ctx as unknown as AppContext, ctx.request.body);
      input.body = ctx.request.body as Record<string, unknown>;
    }
    ctx.state.input = input;
    await next();
  };
  return withFacts(middleware, {
    input: schemas,
    ...(options.fieldsInvalid ? { bodyRefusal: 'fields_invalid' as const } : {}),
  });
}
