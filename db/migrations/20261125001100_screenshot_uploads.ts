// People upload their own captures (issue 23, DECISIONS: Screenshots) through the image pipeline. What the
// tables need for it:
// - an upload of purpose `screenshot`, carrying the capture's fields for the worker that records it
//   (`image_uploads.capture`): the capture row is written only when its files are, so a gallery never shows
//   a capture still being processed;
// - a capture's stored size (`screenshots.bytes`, both files), which the 5 GB quota adds up;
// - the files of a deleted capture: the row goes at once, whoever deletes it (its route, DELETE
//   /account/data, an account's cascade), and a trigger holds its files in `deleted_capture_files`.
//   media.cleanup removes them once no layout of the account names the capture, so a profile layout that
//   still names it never loses the picture under it while the author has not saved the layout again.
//   No foreign key to accounts: an account's deletion is exactly when its held files must outlive it
//   until the next cleanup.
import type { Knex } from 'knex';

const UPLOAD_PURPOSES = [
  'layout',
  'avatar',
  'banner',
  'app_icon',
  'arcade_icon',
  'arcade_tile',
  'arcade_cover',
  'arcade_screenshot',
];
const list = (values: string[]) => values.map((value) => `'${value}'`).join(', ');

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE image_uploads DROP CONSTRAINT image_uploads_purpose_known;
    ALTER TABLE image_uploads ADD CONSTRAINT image_uploads_purpose_known
      CHECK (purpose IN (${list([...UPLOAD_PURPOSES, 'screenshot'])}));
    ALTER TABLE image_uploads ADD COLUMN capture jsonb;
    ALTER TABLE image_uploads ADD CONSTRAINT image_uploads_capture_fields
      CHECK ((purpose = 'screenshot') = (capture IS NOT NULL));
  `);

  await knex.schema.alterTable('screenshots', (t) => {
    // The stored image and its thumbnail together; 0 for captures written before uploads existed.
    t.bigInteger('bytes').notNullable().defaultTo(0);
    t.check('bytes >= 0', [], 'screenshots_bytes_positive');
  });

  await knex.schema.createTable('deleted_capture_files', (t) => {
    t.text('storage_key').primary();
    t.uuid('account_id').notNullable();
    // What the account's layouts name the capture by (`{kind: screenshot, id}`).
    t.text('public_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['account_id']);
  });
  // Per statement: an account's cascade or DELETE /account/data deletes its captures in one statement.
  await knex.raw(`CREATE FUNCTION hold_deleted_capture_files() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    INSERT INTO deleted_capture_files (storage_key, account_id, public_id)
      SELECT f.key, g.account_id, g.public_id FROM gone g
        CROSS JOIN LATERAL (VALUES (g.image_key), (g.thumbnail_key)) AS f(key)
        WHERE f.key IS NOT NULL
      ON CONFLICT DO NOTHING;
    RETURN NULL; END $$`);
  await knex.raw(`CREATE TRIGGER screenshots_hold_files AFTER DELETE ON screenshots
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION hold_deleted_capture_files()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER screenshots_hold_files ON screenshots');
  await knex.raw('DROP FUNCTION hold_deleted_capture_files()');
  // Held files go to the general queue, so nothing is left that no row points at.
  await knex.raw(`INSERT INTO orphaned_media (storage_key) SELECT storage_key FROM deleted_capture_files
    ON CONFLICT DO NOTHING`);
  await knex.schema.dropTable('deleted_capture_files');
  await knex.schema.alterTable('screenshots', (t) => {
    t.dropChecks(['screenshots_bytes_positive']);
    t.dropColumn('bytes');
  });
  // Uploads in flight of the new purpose cannot stay under the older check; their rows queue their staging.
  await knex('image_uploads').where({ purpose: 'screenshot' }).delete();
  await knex.raw(`
    ALTER TABLE image_uploads DROP CONSTRAINT image_uploads_capture_fields;
    ALTER TABLE image_uploads DROP COLUMN capture;
    ALTER TABLE image_uploads DROP CONSTRAINT image_uploads_purpose_known;
    ALTER TABLE image_uploads ADD CONSTRAINT image_uploads_purpose_known CHECK (purpose IN (${list(UPLOAD_PURPOSES)}));
  `);
}
