// Stored images of every kind (layout images, avatars and banners with their history, app icons), the
// uploads waiting for a worker, and the storage objects waiting to be removed.
//
// A storage object outlives a row only through `orphaned_media`: deleting an image or an upload row (by a
// route, a cleanup or a cascade from its account or app) queues its object there in the same
// transaction, by trigger, and the worker that writes an object queues it there first and takes it back
// when its row commits. A crash anywhere leaves a queued key that media.cleanup deletes, never a file
// nothing points at.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('images', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    // An app icon goes with its app.
    table.uuid('app_id').references('apps.id').onDelete('CASCADE');
    table.text('purpose').notNullable();
    table.text('storage_key').notNullable().unique();
    table.text('content_type').notNullable();
    table.integer('width').notNullable();
    table.integer('height').notNullable();
    table.integer('bytes').notNullable();
    table.boolean('animated').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // Layout images: the last moment a saved or published layout was known to name the image.
    table.timestamp('last_named_at', { useTz: true });
    table.check("purpose in ('layout', 'avatar', 'banner', 'app_icon')", [], 'images_purpose_known');
    table.check("(purpose = 'app_icon') = (app_id IS NOT NULL)", [], 'images_app_icon_has_app');
    table.check('width > 0 AND height > 0 AND bytes > 0', [], 'images_measured');
    table.index(['account_id', 'purpose', 'created_at']);
  });
  // One icon per app: replacing it deletes the old row in the same transaction.
  await knex.raw("CREATE UNIQUE INDEX images_one_icon_per_app ON images (app_id) WHERE purpose = 'app_icon'");

  await knex.schema.alterTable('profiles', (table) => {
    table.uuid('avatar_image_id').references('images.id').onDelete('SET NULL');
    table.uuid('banner_image_id').references('images.id').onDelete('SET NULL');
  });

  await knex.schema.createTable('image_uploads', (table) => {
    table.uuid('id').primary();
    table.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    table.text('purpose').notNullable();
    table.uuid('app_id').references('apps.id').onDelete('CASCADE');
    table.text('staging_key').notNullable().unique();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.check("purpose in ('layout', 'avatar', 'banner', 'app_icon')", [], 'image_uploads_purpose_known');
    table.index(['created_at']);
  });

  await knex.schema.createTable('orphaned_media', (table) => {
    table.text('storage_key').primary();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.raw(`
    CREATE FUNCTION orphan_image_object() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO orphaned_media (storage_key) VALUES (OLD.storage_key) ON CONFLICT DO NOTHING;
      RETURN OLD;
    END $$;
    CREATE TRIGGER images_orphan_object AFTER DELETE ON images
      FOR EACH ROW EXECUTE FUNCTION orphan_image_object();
    CREATE FUNCTION orphan_staging_object() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO orphaned_media (storage_key) VALUES (OLD.staging_key) ON CONFLICT DO NOTHING;
      RETURN OLD;
    END $$;
    CREATE TRIGGER image_uploads_orphan_object AFTER DELETE ON image_uploads
      FOR EACH ROW EXECUTE FUNCTION orphan_staging_object();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER image_uploads_orphan_object ON image_uploads');
  await knex.raw('DROP TRIGGER images_orphan_object ON images');
  await knex.raw('DROP FUNCTION orphan_staging_object(); DROP FUNCTION orphan_image_object()');
  await knex.schema.dropTable('orphaned_media');
  await knex.schema.dropTable('image_uploads');
  await knex.schema.alterTable('profiles', (table) => {
    table.dropColumn('avatar_image_id');
    table.dropColumn('banner_image_id');
  });
  await knex.schema.dropTable('images');
}
