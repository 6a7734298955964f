// A catalog game's cover: upstream's image id (IGDB's `cover.image_id`), from which every answer that shows
// the game builds the image's URL (shared/content/game-covers.ts); null for a game without one. An id, not an
// address: the host and size are the service's choice and change in one place, and the check keeps an id
// to characters that cannot leave its path segment. Nullable without a default, so adding it rewrites no
// row; the browse's covering indexes leave it out (a page reads its shown rows from the table anyway).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `ALTER TABLE games ADD COLUMN cover_image_id text,
       ADD CONSTRAINT games_cover_image_id_shape CHECK (cover_image_id ~ '^[A-Za-z0-9_-]{1,64}$')`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE games DROP COLUMN cover_image_id');
}
