// Made-up follow-ups of real titles, for catalogs larger than the real list (`--games 300000` for IGDB's
// size): the Nth variant of a title is always the same name, type and year offset, so an expanded catalog
// is rebuilt identically and a smaller one is a prefix of a larger one. Every name ends in "(synthetic)":
// "Doom II" is a real game, and a made-up one must never pass for it.

export const SYNTHETIC = ' (synthetic)';

export interface Variant {
  name: string;
  /** The IGDB game type: 0 main game, 1 DLC, 2 expansion, 3 bundle, 8 remake, 9 remaster, 10 expanded, 11 port. */
  type: number;
  /** Years after the original's release. */
  years: readonly [number, number];
}

// Mostly sequels (type 0), so an expanded catalog keeps IGDB's mix: a main game for most rows.
const FOLLOW_UPS: ReadonlyArray<{ suffix: string; type: number; years: readonly [number, number] }> = [
  { suffix: ' II', type: 0, years: [1, 4] },
  { suffix: ' III', type: 0, years: [3, 7] },
  { suffix: ': Remastered', type: 9, years: [8, 18] },
  { suffix: ' IV', type: 0, years: [6, 10] },
  { suffix: ': The Lost Chapters', type: 2, years: [1, 2] },
  { suffix: ' Zero', type: 0, years: [5, 20] },
  { suffix: ': Origins', type: 0, years: [10, 25] },
  { suffix: ' Remake', type: 8, years: [12, 30] },
  { suffix: ': Definitive Edition', type: 10, years: [4, 12] },
  { suffix: ': Season Pass', type: 1, years: [0, 1] },
  { suffix: ': Collection', type: 3, years: [5, 15] },
  { suffix: ' Portable', type: 11, years: [3, 10] },
];

/** Variant `round` (1, 2, ...) of a title: named follow-ups first, then numbered sequels from 5 on. */
export function variant(name: string, round: number): Variant {
  const known = FOLLOW_UPS[round - 1];
  if (known) return { name: `${name}${known.suffix}${SYNTHETIC}`, type: known.type, years: known.years };
  const number = round - FOLLOW_UPS.length + 4;
  return { name: `${name} ${number}${SYNTHETIC}`, type: 0, years: [number, number * 2] };
}
