// Levels (DECISIONS: Minerals and awards): 1 plus the number of thresholds 100, 300, 600, 1000, ... (each
// step 100 more than the last: the k-th is 50·k·(k+1)) that lifetime earnings have reached. Lifetime
// earnings are every mineral the ledger ever credited (posting, award credits, grants, an opening balance)
// less what deletions took back; spending on awards does not lower them. The database computes the same
// rule (mineral_level in migration 20261126000400_minerals_and_awards); a test holds the two equal.

/** The lifetime earnings that reach level `level + 1`. */
export function nextLevelAt(level: number): number {
  return 50 * level * (level + 1);
}

/** The level of these lifetime earnings. */
export function levelFor(lifetime: number): number {
  if (!(lifetime > 0)) return 1;
  // The closed form, then corrected in whole numbers where floating point lands beside a threshold.
  let passed = Math.floor((Math.sqrt(1 + 0.08 * lifetime) - 1) / 2);
  while (nextLevelAt(passed + 1) <= lifetime) passed += 1;
  while (passed > 0 && nextLevelAt(passed) > lifetime) passed -= 1;
  return 1 + passed;
}
