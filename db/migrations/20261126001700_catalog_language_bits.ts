// A browse by language (`language=pt`: any of the interface, audio and subtitle arrays) walked an order's
// index and read every game's row to test the arrays, which the covering indexes leave out (they would
// double them): deep pages of `language=pt&obscure=1` read 55,000 rows, 35 to 70 ms. Each game now keeps
// the base languages it names as bits, 8 bytes that every order's index carries, so that walk tests the
// index alone (shared/catalog/game-search.ts). The bits stand for the 62 base codes below; any other term
// (a region's code such as `pt-BR`, a base not listed) sets the last bit, and a search naming one tests the
// arrays as before. The arrays and their GIN indexes stay: counting a language's games uses them.
import type { Knex } from 'knex';

/** ISO 639-1 codes (and Filipino's 639-2) of the languages games are made in; the order is the bits'. */
const BASES = [
  'en ja de fr es it pt ru zh ko pl nl sv da no nb fi cs hu tr ar he th vi id ms uk el ro bg hr sr sk',
  'sl lt lv et ca eu gl is ga fa hi bn ta ur tl fil ka hy az kk uz mn be mk sq af sw nn cy',
]
  .join(' ')
  .split(' ');

/** The order indexes of the catalog_covering migrations: of all games and of the browsable ones. */
const COVERING = "indexname LIKE 'games\\_by\\_%' OR indexname LIKE 'games\\_browse\\_by\\_%'";

async function coveringIndexes(knex: Knex): Promise<Array<{ name: string; definition: string }>> {
  const { rows } = await knex.raw<{ rows: Array<{ name: string; definition: string }> }>(
    `SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE tablename = 'games' AND (${COVERING})`,
  );
  return rows;
}

/** Each index made again from its own definition, changed by `change`. */
async function remake(knex: Knex, change: (definition: string) => string): Promise<void> {
  for (const { name, definition } of await coveringIndexes(knex)) {
    const changed = change(definition);
    if (changed === definition) throw new Error(`${name}: its definition is not the one this migration knows`);
    await knex.raw(`DROP INDEX ${name}`);
    await knex.raw(changed);
  }
}

export async function up(knex: Knex): Promise<void> {
  if (BASES.length !== 62 || new Set(BASES).size !== 62) throw new Error('62 distinct bases, one per bit');
  // The last bit (62; 63 is the sign) stands for every term that is not one of the bases.
  await knex.raw(`
    CREATE FUNCTION catalog_language_bits(terms text[]) RETURNS bigint
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
    DECLARE
      bits bigint := 0;
      term text;
    BEGIN
      FOREACH term IN ARRAY terms LOOP
        bits := bits | (1::bigint << coalesce(array_position(ARRAY[${BASES.map((base) => `'${base}'`).join(', ')}], term) - 1, 62));
      END LOOP;
      RETURN bits;
    END $$`);
  await knex.raw(`ALTER TABLE games ADD COLUMN language_bits bigint NOT NULL
    GENERATED ALWAYS AS (catalog_language_bits(interface_languages || audio_languages || subtitle_languages)) STORED`);
  // After the type, among the fixed-width columns, so an index walk finds it at a known offset.
  await remake(knex, (definition) => definition.replace('INCLUDE (type, ', 'INCLUDE (type, language_bits, '));
}

export async function down(knex: Knex): Promise<void> {
  await remake(knex, (definition) => definition.replace('INCLUDE (type, language_bits, ', 'INCLUDE (type, '));
  await knex.raw('ALTER TABLE games DROP COLUMN language_bits');
  await knex.raw('DROP FUNCTION catalog_language_bits(text[])');
}
