// `q` on the shared activity feed (review text, list and journey titles, capture descriptions, game
// names) walked the feed newest first, testing each item, and a word that few items hold walked all of them:
// 2 to 8 s over 1.3 million items. Word indexes find the few things a word is in, so the feed reads only
// their items; a word in many things still walks, and finds its page early. A text matches by its words
// (each word of `q` begins one of them): a trigram index on review bodies answered "kung" with five
// candidates for each true match (its trigrams are in other words), each read and tested again, 20
// microseconds apiece. A review keeps its words beside it, so a walk tests them without parsing the body.
import type { Knex } from 'knex';

const TITLES: Array<[string, string]> = [
  ['lists', 'title'],
  ['journeys', 'title'],
  ['screenshots', 'description'],
];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "ALTER TABLE reviews ADD COLUMN words tsvector GENERATED ALWAYS AS (to_tsvector('simple', catalog_fold(body))) STORED",
  );
  await knex.raw('CREATE INDEX reviews_words ON reviews USING gin (words)');
  for (const [table, column] of TITLES) {
    await knex.raw(
      `CREATE INDEX ${table}_${column}_words ON ${table} USING gin (to_tsvector('simple', catalog_fold(${column})))`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [table, column] of TITLES) await knex.raw(`DROP INDEX ${table}_${column}_words`);
  await knex.raw('DROP INDEX reviews_words');
  await knex.raw('ALTER TABLE reviews DROP COLUMN words');
}
