// Holds the reference to what the test apps were seen to answer (see openapi-observer.ts): an error a
// route gave must be listed in its operation's `x-errors`, a success status must be documented, every
// field of a success body must appear in the operation's example, and every JSON success body must
// validate against the operation's schema (checked as it is answered, with answerValidators() below).
// Each finding names a request showing it.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule, { type FormatsPlugin } from 'ajv-formats';
import { isJsonMedia, openApiPath } from '../../api/openapi/build-document.js';
import type { Observation } from './openapi-observer.js';

interface MediaType {
  schema?: object;
  example?: unknown;
}
interface Operation {
  'x-errors': Array<{ code: string; reason: string | null }>;
  responses: Record<string, { content?: Record<string, MediaType> }>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, object> };
}

function plainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

/** The field names of `data`: an object's own, or those of every object item of a list. */
export function dataFields(data: unknown): string[] {
  const items = Array.isArray(data) ? data : [data];
  return [...new Set(items.filter(plainObject).flatMap((item) => Object.keys(item)))].sort();
}

function missing(seen: string[], shown: string[]): string[] {
  return seen.filter((field) => !shown.includes(field));
}

/** The JSON media type of a response and its entry, when it has one. */
export function jsonContent(response: { content?: Record<string, MediaType> } | undefined) {
  return Object.entries(response?.content ?? {}).find(([media]) => isJsonMedia(media));
}

function checkSuccess(operation: Operation, seen: Observation, where: string): string[] {
  const response = operation.responses[String(seen.status)];
  if (!response) return [`${where}: answered ${seen.status}, which the reference does not list`];
  const findings = seen.invalid ? [`${where}: the ${seen.status} body breaks its schema: ${seen.invalid}`] : [];
  if (!seen.fields) return findings;
  const example = jsonContent(response)?.[1].example as Record<string, unknown> | undefined;
  if (example === undefined) return [...findings, `${where}: no example of the ${seen.status} answer`];
  const envelope = missing(seen.fields.body, Object.keys(example));
  if (envelope.length) findings.push(`${where}: the example lacks ${envelope.join(', ')} beside data`);
  const data = missing(seen.fields.data, dataFields(example.data));
  if (data.length) findings.push(`${where}: the example's data lacks ${data.join(', ')}`);
  return findings;
}

export function disagreements(document: OpenApiDocument, observations: Observation[]): string[] {
  const findings = new Set<string>();
  for (const seen of observations) {
    if (seen.method === 'HEAD' || seen.code === 'method_not_allowed') continue;
    const operation = document.paths[openApiPath(seen.route)]?.[seen.method.toLowerCase()];
    // Probe routes that tests mount beside the API are not part of it.
    if (!operation) continue;
    const where = `${seen.method} ${seen.route} (e.g. ${seen.example})`;
    if (seen.status < 400) {
      for (const finding of checkSuccess(operation, seen, where)) findings.add(finding);
      continue;
    }
    const listed = operation['x-errors'].some((e) => e.code === seen.code && e.reason === seen.reason);
    if (!listed) {
      const said = seen.reason ? `${seen.code}:${seen.reason}` : String(seen.code);
      findings.add(`${where}: answered ${seen.status} ${said}, which its errors do not list`);
    }
  }
  return [...findings].sort();
}

/**
 * The schema as a closed world: every object that names its members admits no others. The reference keeps
 * objects open (clients must tolerate new members, docs/api-notes.md: Versioning), but a member the server sends and
 * the reference does not name is a gap in the reference, so the tests judge bodies this way. Objects that
 * say what their other members are (`additionalProperties`, maps, free-form options) stay as they are.
 */
export function closedWorld(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closedWorld);
  if (!schema || typeof schema !== 'object') return schema;
  const node = Object.fromEntries(
    Object.entries(schema).map(([key, value]) =>
      // Values that are data, not schemas.
      ['enum', 'const', 'example', 'examples', 'default', 'required'].includes(key)
        ? [key, value]
        : [key, closedWorld(value)],
    ),
  ) as Record<string, unknown>;
  const open = ['additionalProperties', 'patternProperties', 'unevaluatedProperties'].some((key) => key in node);
  if (node.properties && !open) node.additionalProperties = false;
  return node;
}

const addFormats = (formatsModule as unknown as { default: FormatsPlugin }).default;

/** `/a/{b}` as one escaped step of a JSON pointer inside a URI fragment. */
const pointerStep = (step: string) => encodeURIComponent(step.replaceAll('~', '~0').replaceAll('/', '~1'));

/** An ajv error as one line: where in the body, and what. */
export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  // A failed anyOf or oneOf lists each branch's first error before its own.
  return (errors ?? [])
    .slice(0, 8)
    .map((error) => {
      const extra =
        error.keyword === 'additionalProperties'
          ? ` (${(error.params as { additionalProperty: string }).additionalProperty})`
          : error.keyword === 'enum' || error.keyword === 'const'
            ? ` (${JSON.stringify(error.data)})`
            : '';
      return `${error.instancePath || '/'} ${error.message}${extra}`;
    })
    .join('; ');
}

/**
 * Validators of the success bodies of a document's operations, in the closed world, compiled once each
 * (ajv's JSON Schema 2020-12 with formats, as OpenAPI 3.1 speaks): `validatorOf('GET', '/api/v1/games',
 * 200)` is null when the operation, the status or a JSON schema for it is not in the document.
 */
export function answerValidators(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: false, verbose: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ ...(closedWorld(document) as object), $id: 'urn:jogatina:reference' });
  const compiled = new Map<string, ValidateFunction | null>();
  return function validatorOf(method: string, path: string, status: number): ValidateFunction | null {
    const key = `${method} ${path} ${status}`;
    if (!compiled.has(key)) {
      const operation = document.paths[path]?.[method.toLowerCase()];
      const json = jsonContent(operation?.responses[String(status)]);
      if (!json?.[1].schema) {
        compiled.set(key, null);
      } else {
        const pointer = ['paths', path, method.toLowerCase(), 'responses', String(status), 'content', json[0], 'schema']
          .map(pointerStep)
          .join('/');
        compiled.set(key, ajv.compile({ $ref: `urn:jogatina:reference#/${pointer}` }));
      }
    }
    return compiled.get(key)!;
  };
}

/**
 * Validators of the schemas the document names under `components.schemas` (an event's claims, say), in
 * the closed world as answers are judged, compiled once each: `validatorOf('Event_ping')`.
 */
export function componentValidators(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: false, verbose: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ ...(closedWorld(document) as object), $id: 'urn:jogatina:reference' });
  const compiled = new Map<string, ValidateFunction>();
  return function validatorOf(name: string): ValidateFunction {
    if (!document.components?.schemas?.[name]) throw new Error(`The reference names no schema ${name}.`);
    if (!compiled.has(name)) {
      compiled.set(name, ajv.compile({ $ref: `urn:jogatina:reference#/components/schemas/${pointerStep(name)}` }));
    }
    return compiled.get(name)!;
  };
}
