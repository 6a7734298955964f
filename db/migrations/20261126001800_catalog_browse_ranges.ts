// A year or hours range over the browsable games (no `obscure`) found its matches by intersecting the range's
// index over all games with a bitmap of every browsable game, which the planner took from a partial GIN index
// of languages (59,000 entries read, 10 ms, before a row was), or by walking a browse index through most of
// its entries (`yearFrom=1990&yearTo=1995&sort=votes`: 22 to 35 ms). The ranges over the browsable games have
// indexes of their own: 4 ms.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX games_browse_release_year ON games (release_year) WHERE browsable');
  await knex.raw('CREATE INDEX games_browse_hours_main ON games (hours_main) WHERE browsable');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX games_browse_hours_main');
  await knex.raw('DROP INDEX games_browse_release_year');
}
