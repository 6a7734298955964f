// The profile layout validator (spec: Profile layout document, schema 2). A pure function of its input:
// it upgrades schema 1, drops the removed colour keys, walks the document once collecting issues with the
// spec's codes (at most 20 reported), then checks totals, counts per type and the size in UTF-8 bytes.
// It never throws on any JSON value.
import { dropRemovedKeys } from './dropped-keys.js';
import { IssueList, type LayoutIssue } from './layout-issues.js';
import { LIMITS } from './layout-limits.js';
import { LayoutWalker, type Json } from './layout-walker.js';
import { upgradeSchema1 } from './legacy-upgrade.js';

export type LayoutValidation = { ok: true; document: Json; bytes: number } | { ok: false; issues: LayoutIssue[] };

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Layout image ids are our uuids, which compare case-insensitively; storing them in lower case lets the
 * database's in-use test (an exact jsonpath comparison) see every spelling.
 */
function lowercaseMediaIds(value: unknown): void {
  if (Array.isArray(value)) return value.forEach(lowercaseMediaIds);
  if (!isObject(value)) return;
  if (value.kind === 'media' && typeof value.id === 'string') value.id = value.id.toLowerCase();
  Object.values(value).forEach(lowercaseMediaIds);
}

/** Validates a document as sent; on success answers the document to store (schema 2, dropped keys gone). */
export function validateLayout(input: unknown): LayoutValidation {
  const issues = new IssueList();
  if (!isObject(input)) {
    issues.add('shape', 'The layout must be an object.', []);
    return { ok: false, issues: issues.issues };
  }
  let doc: Json;
  try {
    doc = structuredClone(input);
  } catch {
    issues.add('shape', 'The layout must be plain JSON.', []);
    return { ok: false, issues: issues.issues };
  }
  if (doc.schema === 1) doc = upgradeSchema1(doc);
  else if (doc.schema !== 2) issues.add('shape', 'schema must be 2 (or 1, which is upgraded).', ['schema']);
  dropRemovedKeys(doc);
  lowercaseMediaIds(doc);

  const walker = new LayoutWalker(issues);
  walker.document(doc);
  walker.totals();
  const bytes = Buffer.byteLength(JSON.stringify(doc), 'utf8');
  if (bytes > LIMITS.bytes)
    issues.add('too_large', `A layout is at most ${LIMITS.bytes} bytes of UTF-8; this one is ${bytes}.`, []);
  return issues.issues.length > 0 ? { ok: false, issues: issues.issues } : { ok: true, document: doc, bytes };
}
