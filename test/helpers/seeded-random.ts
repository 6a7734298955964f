// Seeded random draws for property tests: the same data and cases on every run, so a failure can be replayed.

/** mulberry32 over `seed`, with the draws the tests use. */
export function seededRandom(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (low: number, high: number) => low + Math.floor(next() * (high - low + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)];
  const chance = (p: number) => next() < p;
  const some = <T>(items: readonly T[], most: number): T[] => Array.from({ length: int(0, most) }, () => pick(items));
  return { int, pick, chance, some };
}

export type SeededRandom = ReturnType<typeof seededRandom>;
