// Holds the reference to what the test apps were seen to answer (see openapi-observer.ts): an error a
// route gave must be listed in its operation's `x-errors`, a success status must be documented, and every
// field of a success body must appear in the operation's example. Each finding names a request showing it.
import { openApiPath } from '../../api/openapi/build-document.js';
import { dataFields, type Observation } from './openapi-observer.js';

interface Operation {
  'x-errors': Array<{ code: string; reason: string | null }>;
  responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

function missing(seen: string[], shown: string[]): string[] {
  return seen.filter((field) => !shown.includes(field));
}

function checkSuccess(operation: Operation, seen: Observation, where: string): string[] {
  const response = operation.responses[String(seen.status)];
  if (!response) return [`${where}: answered ${seen.status}, which the reference does not list`];
  if (!seen.fields) return [];
  const example = response.content?.['application/json']?.example as Record<string, unknown> | undefined;
  if (example === undefined) return [`${where}: no example of the ${seen.status} answer`];
  const findings: string[] = [];
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
