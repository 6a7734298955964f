// Arrays of a mark per game, which a search of the catalog's copy uses to note its matches, its
// candidates seen and its places in an order: lent for one search and taken back cleared. Made anew, each
// was 300 KB at 300,000 games, zeroed by the system and collected later, several a search at hundreds of
// searches a second; a cleared one is ready again in microseconds.
import type { CatalogSnapshot } from './copy-indexes.js';

/** Arrays kept for reuse, per copy (a copy of another size needs its own). */
const free = new WeakMap<CatalogSnapshot, Uint8Array[]>();
/** Kept at most per copy: a search uses a handful. */
const KEPT = 16;
/** The arrays lent within the search running now (searches of the copy run without awaiting). */
let lent: Array<[CatalogSnapshot, Uint8Array]> | null = null;

/** A cleared array of a mark per game of `copy`, taken back when the search ends (inSearch). */
export function marksOf(copy: CatalogSnapshot): Uint8Array {
  const marks = free.get(copy)?.pop() ?? new Uint8Array(copy.size);
  lent?.push([copy, marks]);
  return marks;
}

/** Runs one search of the copy, which must not await, and takes back the arrays it was lent. */
export function inSearch<T>(search: () => T): T {
  const outer = lent;
  lent = [];
  try {
    return search();
  } finally {
    for (const [copy, marks] of lent) {
      let kept = free.get(copy);
      if (!kept) free.set(copy, (kept = []));
      if (kept.length >= KEPT) continue;
      marks.fill(0);
      kept.push(marks);
    }
    lent = outer;
  }
}
