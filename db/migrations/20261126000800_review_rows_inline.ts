// A review's row stays whole in its page. A review kept its words (migration feed_text_search) with their
// positions: 2.2 KB for a review of 1,100 characters, which made the row 3.4 KB and over the 2 KB at which
// PostgreSQL moves a value out to the TOAST table, so nearly every review wrote a second row there, its
// index entry and their WAL, and every read of its body fetched it back. The words keep no positions now
// (`q` tests whether words are present, never where: 1.6 KB), and rows stay in their page up to 8 KB; only
// long essays go out of line. The column is made again (PostgreSQL 15 cannot change a generated column's
// expression), which rewrites the table once.
import type { Knex } from 'knex';

const WORDS = (expression: string) =>
  `ALTER TABLE reviews ADD COLUMN words tsvector GENERATED ALWAYS AS (${expression}) STORED`;

async function rebuildWords(knex: Knex, expression: string): Promise<void> {
  await knex.raw('DROP INDEX reviews_words');
  await knex.raw('ALTER TABLE reviews DROP COLUMN words');
  await knex.raw(WORDS(expression));
  await knex.raw('CREATE INDEX reviews_words ON reviews USING gin (words)');
}

export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE reviews SET (toast_tuple_target = 8160)');
  await rebuildWords(knex, "strip(to_tsvector('simple', catalog_fold(body)))");
}

export async function down(knex: Knex): Promise<void> {
  await rebuildWords(knex, "to_tsvector('simple', catalog_fold(body))");
  await knex.raw('ALTER TABLE reviews RESET (toast_tuple_target)');
}
