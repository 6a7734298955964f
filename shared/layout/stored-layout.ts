// Reading a stored layout leniently. A document this build cannot fully read (a newer block type, say)
// comes back without the parts it cannot read, flagged incomplete; a document that stays unreadable even
// then reads as the default layout, so the page still shows and the next save (under the real version)
// replaces it.
import { defaultLayout } from './default-layout.js';
import type { Path } from './layout-issues.js';
import { validateLayout } from './layout-validator.js';

type Json = Record<string, unknown>;

export interface StoredLayout {
  document: Json;
  /** Parts were left out (draft_incomplete). */
  incomplete: boolean;
  /** Nothing could be read: the default stands in. */
  unreadable: boolean;
}

/** The index path of the block, element or section an issue points into, or null. */
function removablePart(path: Path): Path | null {
  for (const marker of ['blocks', 'elements', 'sections']) {
    const at = path.lastIndexOf(marker);
    if (at >= 0 && typeof path[at + 1] === 'number') return path.slice(0, at + 2);
  }
  return null;
}

function removeAt(document: Json, part: Path): boolean {
  let parent: unknown = document;
  for (const key of part.slice(0, -1)) parent = (parent as Record<string | number, unknown>)?.[key];
  if (!Array.isArray(parent)) return false;
  parent.splice(part[part.length - 1] as number, 1);
  return true;
}

/** Orders paths so that a later or deeper part comes first (numbers compared as numbers). */
function laterFirst(a: Path, b: Path): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    if (a[i] === b[i]) continue;
    if (typeof a[i] === 'number' && typeof b[i] === 'number') return (b[i] as number) - (a[i] as number);
    return String(b[i]).localeCompare(String(a[i]));
  }
  return b.length - a.length;
}

export function readStoredLayout(stored: unknown): StoredLayout {
  let result = validateLayout(stored);
  if (result.ok) return { document: result.document, incomplete: false, unreadable: false };
  let document = structuredClone(stored) as Json;
  // Drop the unreadable parts, deepest and last first so earlier indexes stay right, and try again.
  for (let round = 0; round < 5 && !result.ok; round += 1) {
    const parts = result.issues.map((issue) => (issue.path ? removablePart(issue.path) : null));
    if (parts.some((part) => part === null)) break;
    const unique = [...new Map(parts.map((part) => [JSON.stringify(part), part!])).values()];
    unique.sort(laterFirst);
    if (!unique.every((part) => removeAt(document, part))) break;
    result = validateLayout(document);
    if (result.ok) return { document: result.document, incomplete: true, unreadable: false };
    document = structuredClone(document);
  }
  return { document: defaultLayout(), incomplete: true, unreadable: true };
}
