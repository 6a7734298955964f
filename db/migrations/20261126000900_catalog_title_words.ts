// The words of the catalog's names, for correcting misspellings. When no name contained the text, the
// search looked for names like it by trigram similarity over 300,000 names: a short or common word matched
// tens of thousands of candidates to recheck (300 ms to 1.6 s). Correcting each word against the words
// titles use (25,000 for 300,000 games, a trigram GIN index of their own: under a millisecond a word)
// costs nothing comparable, and says at once when a word is in no title at all.
//
// Each word keeps how many names hold it, so the search can tell a rare text from a common one before it
// reads any name (the planner cannot: it guessed "%fuyu%", in 71 names, as common as "%sto%", in 9,000).
// Words and counts are added by triggers on `games`, so an import, the demo loader or a test's insert keeps
// them. Nothing is taken away when a game is renamed or deleted: a count may run high and a word may stay
// with no game, which can only make a search read its matches first or suggest a correction that then
// finds nothing.
import type { Knex } from 'knex';

/** The words of a folded name: runs of letters and digits (the same split the search makes of the text). */
const WORDS_OF = (column: string) => `regexp_split_to_table(${column}, '[^[:alnum:]]+')`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE TABLE catalog_title_words (word text PRIMARY KEY, games integer NOT NULL)');
  await knex.raw(`
    INSERT INTO catalog_title_words
    SELECT word, count(DISTINCT id) FROM games, ${WORDS_OF('name_folded')} AS word WHERE word <> '' GROUP BY word`);
  await knex.raw('CREATE INDEX catalog_title_words_trgm ON catalog_title_words USING gin (word gin_trgm_ops)');
  // Inserts are counted by statement (the demo loader writes 1,000 games a statement), words in order so
  // that two imports at once take their rows' locks in the same order; a rename is rare and checked by
  // row, since transition tables cannot be limited to one column's updates.
  await knex.raw(`
    CREATE FUNCTION catalog_title_words_add() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO catalog_title_words
      SELECT word, count(DISTINCT id) FROM added_games, ${WORDS_OF('added_games.name_folded')} AS word
      WHERE word <> '' GROUP BY word ORDER BY word
      ON CONFLICT (word) DO UPDATE SET games = catalog_title_words.games + EXCLUDED.games;
      RETURN NULL;
    END $$`);
  await knex.raw(`
    CREATE FUNCTION catalog_title_words_rename() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO catalog_title_words
      SELECT DISTINCT word, 1 FROM ${WORDS_OF('NEW.name_folded')} AS word WHERE word <> ''
      ON CONFLICT (word) DO UPDATE SET games = catalog_title_words.games + 1;
      RETURN NULL;
    END $$`);
  await knex.raw(`
    CREATE TRIGGER games_title_words_insert AFTER INSERT ON games
    REFERENCING NEW TABLE AS added_games FOR EACH STATEMENT EXECUTE FUNCTION catalog_title_words_add()`);
  await knex.raw(`
    CREATE TRIGGER games_title_words_rename AFTER UPDATE OF name ON games
    FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION catalog_title_words_rename()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER games_title_words_rename ON games');
  await knex.raw('DROP TRIGGER games_title_words_insert ON games');
  await knex.raw('DROP FUNCTION catalog_title_words_rename()');
  await knex.raw('DROP FUNCTION catalog_title_words_add()');
  await knex.raw('DROP TABLE catalog_title_words');
}
