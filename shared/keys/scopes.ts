// The app scopes of the spec. `identify` is not one: it is a player's grant to an Arcade game.
export const SCOPES = [
  'catalog.read',
  'profile.read',
  'profile.write',
  'library.read',
  'library.write',
  'lists.read',
  'lists.write',
  'reviews.read',
  'reviews.write',
  'journal.read',
  'journal.write',
  'screenshots.read',
  'screenshots.write',
  'social.read',
  'social.write',
  'notifications.read',
] as const;

export type Scope = (typeof SCOPES)[number];

export type Allowance = 'read' | 'write' | 'catalog';

/** Requests per key per hour (DECISIONS). */
export const ALLOWANCE_PER_HOUR: Record<Allowance, number> = { read: 5000, write: 1000, catalog: 10000 };
