// Seeded randomness for the demo catalog: the same title always draws the same values, whatever else is
// in the catalog and on whichever machine, so a demo or benchmark database can be rebuilt exactly.

/** 32-bit FNV-1a of a string's UTF-16 code units. */
export function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A generator of floats in [0, 1) (mulberry32) with the helpers the enrichment uses. */
export class Random {
  private state: number;

  constructor(seed: string) {
    this.state = hash32(seed);
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** One item by weight: `[[value, weight], ...]`. */
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
    const total = items.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [value, weight] of items) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return items[items.length - 1][0];
  }

  /** Up to `count` distinct items (fewer when duplicates were drawn), in the order drawn. */
  some<T>(items: readonly T[], count: number): T[] {
    const out = new Set<T>();
    for (let i = 0; i < count; i += 1) out.add(this.pick(items));
    return [...out];
  }

  /**
   * A long-tail value: zero with probability `zero`, otherwise a Pareto draw (shape 1.16, the 80/20 rule)
   * scaled by `scale` and capped at `max`: most games near zero, a few very large.
   */
  longTail(zero: number, scale: number, max: number): number {
    if (this.chance(zero)) return 0;
    const u = 1 - this.next(); // (0, 1]
    return Math.min(max, Math.floor(scale * (Math.pow(u, -1 / 1.16) - 1)));
  }
}
