// A catalog game named by what people write (DECISIONS: Shared rules): by id or slug in a path (an unknown
// game is 404 `game_not_found`), by id in a body (400 `fields_invalid` naming the field). A platform must
// be one of the game's. Fixed path segments win over slugs: the routes that have them are declared first.
import type { Knex } from 'knex';
import { coverUrl } from './game-covers.js';
import { notFound } from '../platform/errors.js';
import { fieldsInvalid } from './content-rules.js';

export interface GameRef {
  id: number;
  slug: string;
  name: string;
  platform_ids: number[];
  /** Upstream's image id of the cover (shared/content/game-covers.ts); null for a game without one. */
  cover_image_id: string | null;
}

const COLUMNS = ['id', 'slug', 'name', 'platform_ids', 'cover_image_id'];
const MAX_ID = 2147483647;

/** `{game}` of a path: digits within the id range are a catalog id, anything else a slug. */
export function parseGameSegment(segment: string): { id: number } | { slug: string } {
  const id = /^[0-9]{1,10}$/.test(segment) ? Number(segment) : 0;
  return id >= 1 && id <= MAX_ID ? { id } : { slug: segment };
}

/** The game a path names by id (digits) or slug; 404 `game_not_found` when the catalog has none. */
export async function gameInPath(knex: Knex, idOrSlug: string): Promise<GameRef> {
  const row: GameRef | undefined = await knex('games').where(parseGameSegment(idOrSlug)).first(COLUMNS);
  if (!row) throw notFound('No game has this id or slug.', 'game_not_found');
  return row;
}

/** The catalog's games among `ids`, by id (the ones it lacks are absent). */
export async function loadGameRefs(knex: Knex, ids: number[]): Promise<Map<number, GameRef>> {
  const rows: GameRef[] = await knex('games')
    .whereIn('id', [...new Set(ids)])
    .select(COLUMNS);
  return new Map(rows.map((row) => [row.id, row]));
}

/** The game of a body's `game_id`, or 400 `fields_invalid` naming `field`. */
export async function gameInBody(knex: Knex, id: number, field = 'game_id'): Promise<GameRef> {
  const game = (await loadGameRefs(knex, [id])).get(id);
  if (!game) throw fieldsInvalid(field, 'The catalog has no game with this id.');
  return game;
}

/** Refuses a platform that is not one of the game's; null passes. */
export function refuseForeignPlatform(game: GameRef, platformId: number | null | undefined, field = 'platform_id') {
  if (platformId == null) return;
  if (!(game.platform_ids ?? []).includes(platformId)) {
    throw fieldsInvalid(field, 'This platform is not one of the game’s.');
  }
}

/** What a card is made of: a game's slug, name and cover image id, as the loaders read them from `games`. */
export type CardGame = Pick<GameRef, 'slug' | 'name' | 'cover_image_id'>;

/**
 * What an entry or a thing shows of its game: `{ slug, name, cover_url }` (DECISIONS: Library), the cover's
 * URL as every game answer builds it (null for a game without a cover); null for a game the catalog lost.
 */
export function gameCard(game: CardGame | undefined | null) {
  return game ? { slug: game.slug, name: game.name, cover_url: coverUrl(game.cover_image_id) } : null;
}

/**
 * A game of a `games=1` map (spec: `games=1` adds each game's name, cover, slug): the spec names the member
 * `cover`, and it holds the same URL as a card's `cover_url`.
 */
export function gameOfMap(game: CardGame | undefined | null) {
  return game ? { name: game.name, cover: coverUrl(game.cover_image_id), slug: game.slug } : null;
}
