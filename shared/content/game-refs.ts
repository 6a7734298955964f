// A catalog game named by what people write (DECISIONS: Shared rules): by id or slug in a path (an unknown
// game is 404 `game_not_found`), by id in a body (400 `fields_invalid` naming the field). A platform must
// be one of the game's. Fixed path segments win over slugs: the routes that have them are declared first.
import type { Knex } from 'knex';
import { notFound } from '../platform/errors.js';
import { fieldsInvalid } from './content-rules.js';

export interface GameRef {
  id: number;
  slug: string;
  name: string;
  platform_ids: number[];
}

const COLUMNS = ['id', 'slug', 'name', 'platform_ids'];
const MAX_ID = 2147483647;

/** The game a path names by id (digits) or slug; 404 `game_not_found` when the catalog has none. */
export async function gameInPath(knex: Knex, idOrSlug: string): Promise<GameRef> {
  const id = /^[0-9]{1,10}$/.test(idOrSlug) ? Number(idOrSlug) : null;
  const row: GameRef | undefined =
    id !== null && id >= 1 && id <= MAX_ID
      ? await knex('games').where({ id }).first(COLUMNS)
      : await knex('games').where({ slug: idOrSlug }).first(COLUMNS);
  if (!row) throw notFound('No game has this id or slug.', 'game_not_found');
  return row;
}

/** The games of a body's ids, by id; `field(index)` names the first unknown one. */
export async function gamesInBody(
  knex: Knex,
  ids: number[],
  field: (index: number) => string,
): Promise<Map<number, GameRef>> {
  const rows: GameRef[] = await knex('games')
    .whereIn('id', [...new Set(ids)])
    .select(COLUMNS);
  const found = new Map(rows.map((row) => [row.id, row]));
  const missing = ids.findIndex((id) => !found.has(id));
  if (missing >= 0) throw fieldsInvalid(field(missing), 'The catalog has no game with this id.');
  return found;
}

/** The game of a body's `game_id`. */
export async function gameInBody(knex: Knex, id: number, field = 'game_id'): Promise<GameRef> {
  return (await gamesInBody(knex, [id], () => field)).get(id)!;
}

/** Refuses a platform that is not one of the game's; null passes. */
export function refuseForeignPlatform(game: GameRef, platformId: number | null | undefined, field = 'platform_id') {
  if (platformId == null) return;
  if (!(game.platform_ids ?? []).includes(platformId)) {
    throw fieldsInvalid(field, 'This platform is not one of the game’s.');
  }
}

/** What an entry or a thing shows of its game: `{ slug, name, cover_url }` (the catalog has no covers yet). */
export function gameCard(game: { slug: string; name: string } | undefined | null) {
  return game ? { slug: game.slug, name: game.name, cover_url: null } : null;
}
