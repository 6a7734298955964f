// The awards one person gives another's thing for minerals (DECISIONS: Minerals and awards): eight, from a
// friendly GG to the Hall of Fame. The author of the thing is credited a fifth of the cost, rounded down.
// Rows store the award's id (and what was paid), so a renamed award keeps its counts.

export interface Award {
  id: string;
  name: string;
  cost: number;
}

export const AWARDS: readonly Award[] = [
  { id: 'gg', name: 'GG', cost: 100 },
  { id: 'clutch', name: 'Clutch Play', cost: 150 },
  { id: 'pixel_perfect', name: 'Pixel Perfect', cost: 250 },
  { id: 'stunning', name: 'Stunning Shot', cost: 300 },
  { id: 'hidden_gem', name: 'Hidden Gem', cost: 500 },
  { id: 'legendary', name: 'Legendary Loot', cost: 750 },
  { id: 'masterpiece', name: 'Masterpiece', cost: 1000 },
  { id: 'hall_of_fame', name: 'Hall of Fame', cost: 2000 },
];

export const AWARD_IDS = AWARDS.map((award) => award.id);

export function awardById(id: string): Award | undefined {
  return AWARDS.find((award) => award.id === id);
}

/** What an award's author receives: a fifth of its cost, rounded down (outside the daily cap). */
export function authorCredit(cost: number): number {
  return Math.floor(cost / 5);
}
