// A text too short for a trigram, or found in thousands of names, walks an order's index and tests each
// name (shared/catalog/game-text-search.ts): with the folded name inside the all-games order indexes the
// walk reads no game it does not show ("s", in 90,000 names, page 29: 300 ms when every match was sorted
// by rank; "n" by votes, page 94: 60 ms reading each game's row for its name). The name index has it as
// its key already.
import type { Knex } from 'knex';

const ORDERS: Record<string, string> = {
  popularity: 'popularity DESC NULLS LAST, id',
  trending: 'trending DESC NULLS LAST, id',
  hype: 'hype DESC NULLS LAST, id',
  weighted_rating: 'weighted_rating DESC NULLS LAST, id',
  rating_count: 'rating_count DESC NULLS LAST, id',
  release_date: 'release_date DESC NULLS LAST, id',
  release_date_asc: 'release_date ASC NULLS LAST, id',
};

const COVERED = 'type, platform_ids, genre_ids, theme_ids, release_year';

async function rebuild(knex: Knex, covered: string): Promise<void> {
  for (const [name, order] of Object.entries(ORDERS)) {
    await knex.raw(`DROP INDEX games_by_${name}`);
    await knex.raw(`CREATE INDEX games_by_${name} ON games (${order}) INCLUDE (${covered})`);
  }
}

export async function up(knex: Knex): Promise<void> {
  await rebuild(knex, `${COVERED}, name_folded`);
}

export async function down(knex: Knex): Promise<void> {
  await rebuild(knex, COVERED);
}
