// Declares a route's input: path parameters, query and JSON body, each a JSON Schema compiled once when
// the route is declared. The handler reads the checked, coerced values from `ctx.state.input`.
import type { Middleware } from 'koa';
import { invalidRequest } from '../../shared/platform/errors.js';
import { compileSchema, type SchemaObject, type ValidateFunction } from '../../shared/platform/validation/ajv.js';
import { coerceParameters } from '../../shared/platform/validation/coerce.js';
import { describeError } from '../../shared/platform/validation/describe-error.js';
import type { AppState } from '../context.js';
import { withFacts } from '../openapi/route-facts.js';

export interface InputSchemas {
  params?: SchemaObject;
  query?: SchemaObject;
  body?: SchemaObject;
}

function check(validator: ValidateFunction, value: unknown, root: string): void {
  if (!validator(value)) throw describeError(validator.errors![0], root);
}

export function validate(schemas: InputSchemas): Middleware<AppState> {
  const params = schemas.params && compileSchema(schemas.params);
  const query = schemas.query && compileSchema(schemas.query);
  const body = schemas.body && compileSchema(schemas.body);

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
    ctx.state.input = input;
    await next();
  };
  return withFacts(middleware, { input: schemas });
}
