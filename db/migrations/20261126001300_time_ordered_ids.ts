// Rows people write at a rate get ids that grow with time (UUID version 7: 48 bits of Unix milliseconds,
// then 74 random bits), not random ones. A random id lands each new row's primary key entry, and every
// other index keyed by it (an item's subject, a posting's subject), on a random page of a large index:
// with the feed's 1.2 million items those pages are mostly out of the buffers, so each write read one in,
// dirtied it and, after a checkpoint, logged it whole. Ids in time order append to the index's right
// edge. Measured with POST /reviews at 20 clients, on copies of one seeded database, back to back: 908
// and 1,050 a second (1.74 to 2.03 ms of machine CPU a review) before, 1,144 to 1,202 (1.51 to 1.62) after.
//
// Only tables whose rows show when they were made (a review's created_at, a session's times, an item's
// time) take it: the id then tells nothing the row does not. Accounts, keys, sessions, tokens and the
// other rows whose age is nobody's business keep random ids. Rows already written keep theirs.
import type { Knex } from 'knex';

export const TIME_ORDERED = [
  'activity_items',
  'reviews',
  'library_entries',
  'library_copies',
  'play_sessions',
  'journeys',
  'lists',
  'list_folders',
  'comments',
  'notifications',
  'screenshots',
  'awards',
  'reports',
  'email_outbox',
  'arcade_events',
  'arcade_data_events',
];

export async function up(knex: Knex): Promise<void> {
  // PostgreSQL 15 has no version 7 generator: a version 4 id (random, with the variant bits set) gets the
  // time in its first 6 bytes and its version nibble turned from 4 to 7 (bits 52 and 53, counted from the
  // least significant bit of each byte).
  await knex.raw(`
    CREATE FUNCTION uuid_v7() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
      SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) PLACING
        substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6),
        52, 1), 53, 1), 'hex')::uuid
    $$`);
  for (const table of TIME_ORDERED) {
    await knex.raw('ALTER TABLE ?? ALTER COLUMN id SET DEFAULT uuid_v7()', [table]);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TIME_ORDERED) {
    await knex.raw('ALTER TABLE ?? ALTER COLUMN id SET DEFAULT gen_random_uuid()', [table]);
  }
  await knex.raw('DROP FUNCTION uuid_v7()');
}
