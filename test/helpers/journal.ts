// What the journal's tests share: times relative to now, a key's header, a subject's feed items, and the
// two catalog games the sessions and journeys are of.
import { db } from '../../shared/platform/db/knex.js';
import { catalogGame, type CatalogGame } from './people.js';

/** An ISO time `minutes` from now (negative: ago). */
export const fromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

export const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

/** The feed items of one journal thing. */
export const feedItemsOf = (kind: 'session' | 'journey', subjectId: string) =>
  db()('activity_items').where({ kind, subject_id: subjectId });

/**
 * Hollow Knight (with `fields`: a journey's tests give it a genre, a year and a rating to see it shaped like
 * /games; a session's, platforms to refuse others) and Celeste, a second game.
 */
export async function journalGames(
  fields: Record<string, unknown>,
): Promise<{ game: CatalogGame; other: CatalogGame }> {
  const game = await catalogGame({ name: 'Hollow Knight', slug: 'hollow-knight', ...fields });
  const other = await catalogGame({ name: 'Celeste', slug: 'celeste' });
  return { game, other };
}

/** The journey tests' Hollow Knight: a genre, a year and a rating. */
export async function journeyGames() {
  await db()('catalog_genres').insert([{ id: 31, name: 'Adventure' }]);
  return journalGames({ genre_ids: [31], release_year: 2017, rating: 90.44 });
}
