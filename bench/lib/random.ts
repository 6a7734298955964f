// The random choices generated requests are made of (Math.random: every run differs, as real traffic does).

export const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];
export const chance = (p: number) => Math.random() < p;
/** An integer from `low` to `high`, both included. */
export const between = (low: number, high: number) => low + Math.floor(Math.random() * (high - low + 1));

/**
 * Indices 0 to count - 1 in turn, in a shuffled order: after n turns none has had more than ceil(n / count),
 * so a per-person cap is reached only when the whole crowd has reached it.
 */
export function inTurn(count: number): () => number {
  const order = Array.from({ length: count }, (_, index) => index);
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = between(0, i);
    [order[i], order[j]] = [order[j], order[i]];
  }
  let turn = 0;
  return () => order[turn++ % count];
}
