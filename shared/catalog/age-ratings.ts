// Age rating boards and their steps, youngest first (spec: `age` = board-step, "rated by that board up to
// that step"). A game stores the index of its step per board; the filter is `age_<board> <= index`.
export const AGE_STEPS = {
  esrb: ['ec', 'e', 'e10', 't', 'm', 'ao'],
  pegi: ['3', '7', '12', '16', '18'],
  cero: ['a', 'b', 'c', 'd', 'z'],
  usk: ['0', '6', '12', '16', '18'],
  grac: ['all', '12', '15', '18'],
  class_ind: ['l', '10', '12', '14', '16', '18'],
  acb: ['g', 'pg', 'm', 'ma15', 'r18'],
} as const;

export type AgeBoard = keyof typeof AGE_STEPS;
export const AGE_BOARDS = Object.keys(AGE_STEPS) as AgeBoard[];

/** `pegi-16` → { board: 'pegi', step: 3 }; null when either part is unknown. */
export function parseAgeFilter(value: string): { board: AgeBoard; step: number } | null {
  const dash = value.lastIndexOf('-');
  if (dash <= 0) return null;
  const board = value.slice(0, dash).toLowerCase() as AgeBoard;
  const steps = AGE_STEPS[board] as readonly string[] | undefined;
  const step = steps?.indexOf(value.slice(dash + 1).toLowerCase()) ?? -1;
  return step < 0 ? null : { board, step };
}

/** IGDB's age rating organizations (legacy `category`) and ratings (legacy `rating` enum) as board steps. */
const IGDB_BOARDS: Record<number, AgeBoard> = {
  1: 'esrb',
  2: 'pegi',
  3: 'cero',
  4: 'usk',
  5: 'grac',
  6: 'class_ind',
  7: 'acb',
};
const IGDB_RATINGS: Record<number, [AgeBoard, string]> = {
  1: ['pegi', '3'],
  2: ['pegi', '7'],
  3: ['pegi', '12'],
  4: ['pegi', '16'],
  5: ['pegi', '18'],
  7: ['esrb', 'ec'],
  8: ['esrb', 'e'],
  9: ['esrb', 'e10'],
  10: ['esrb', 't'],
  11: ['esrb', 'm'],
  12: ['esrb', 'ao'],
  13: ['cero', 'a'],
  14: ['cero', 'b'],
  15: ['cero', 'c'],
  16: ['cero', 'd'],
  17: ['cero', 'z'],
  18: ['usk', '0'],
  19: ['usk', '6'],
  20: ['usk', '12'],
  21: ['usk', '16'],
  22: ['usk', '18'],
  23: ['grac', 'all'],
  24: ['grac', '12'],
  25: ['grac', '15'],
  26: ['grac', '18'],
  28: ['class_ind', 'l'],
  29: ['class_ind', '10'],
  30: ['class_ind', '12'],
  31: ['class_ind', '14'],
  32: ['class_ind', '16'],
  33: ['class_ind', '18'],
  34: ['acb', 'g'],
  35: ['acb', 'pg'],
  36: ['acb', 'm'],
  37: ['acb', 'ma15'],
  38: ['acb', 'r18'],
};

/** An IGDB age rating row as a board step; null for pending or refused ratings (RP, GRAC testing, RC). */
export function igdbAgeRating(category: number, rating: number): { board: AgeBoard; step: number } | null {
  const known = IGDB_RATINGS[rating];
  if (!known || IGDB_BOARDS[category] !== known[0]) return null;
  return { board: known[0], step: (AGE_STEPS[known[0]] as readonly string[]).indexOf(known[1]) };
}
