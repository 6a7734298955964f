// Arcade store-page images (spec arcade.md: Store page slots) go through the same image pipeline as every
// other upload, under purposes of their own: the purpose picks the output rules (icons and tiles follow the
// avatar rules, covers and screenshots the still-only rules) and keeps them out of the rules of other
// purposes (layout quota, picture history, one icon per app).
//
// Like an app icon, an Arcade image belongs to an app and goes with it (ON DELETE CASCADE on app_id), so
// the check that tied app_id to app_icon now ties it to every app purpose. The one-icon-per-app unique
// index stays on app_icon alone: a store page holds many images of an app, and which ones are in use is
// decided by its revisions, not by the images table.
import type { Knex } from 'knex';

const OLD_PURPOSES = ['layout', 'avatar', 'banner', 'app_icon'];
const ARCADE_PURPOSES = ['arcade_icon', 'arcade_tile', 'arcade_cover', 'arcade_screenshot'];
const APP_PURPOSES = ['app_icon', ...ARCADE_PURPOSES];

const list = (values: string[]) => values.map((value) => `'${value}'`).join(', ');

export async function up(knex: Knex): Promise<void> {
  const purposes = list([...OLD_PURPOSES, ...ARCADE_PURPOSES]);
  await knex.raw(`
    ALTER TABLE images DROP CONSTRAINT images_purpose_known;
    ALTER TABLE images ADD CONSTRAINT images_purpose_known CHECK (purpose IN (${purposes}));
    ALTER TABLE images DROP CONSTRAINT images_app_icon_has_app;
    ALTER TABLE images ADD CONSTRAINT images_app_purpose_has_app
      CHECK ((purpose IN (${list(APP_PURPOSES)})) = (app_id IS NOT NULL));
    ALTER TABLE image_uploads DROP CONSTRAINT image_uploads_purpose_known;
    ALTER TABLE image_uploads ADD CONSTRAINT image_uploads_purpose_known CHECK (purpose IN (${purposes}));
  `);
  // New for uploads: without it, an upload missing its app would be refused by the images check only
  // after the worker had decoded, screened and stored it.
  await knex.raw(`
    ALTER TABLE image_uploads ADD CONSTRAINT image_uploads_app_purpose_has_app
      CHECK ((purpose IN (${list(APP_PURPOSES)})) = (app_id IS NOT NULL));
  `);
}

export async function down(knex: Knex): Promise<void> {
  // The older checks cannot hold Arcade rows; deleting them queues their files (orphaned_media triggers).
  await knex('image_uploads').whereIn('purpose', ARCADE_PURPOSES).delete();
  await knex('images').whereIn('purpose', ARCADE_PURPOSES).delete();
  const purposes = list(OLD_PURPOSES);
  await knex.raw(`
    ALTER TABLE image_uploads DROP CONSTRAINT image_uploads_app_purpose_has_app;
    ALTER TABLE image_uploads DROP CONSTRAINT image_uploads_purpose_known;
    ALTER TABLE image_uploads ADD CONSTRAINT image_uploads_purpose_known CHECK (purpose IN (${purposes}));
    ALTER TABLE images DROP CONSTRAINT images_app_purpose_has_app;
    ALTER TABLE images ADD CONSTRAINT images_app_icon_has_app CHECK ((purpose = 'app_icon') = (app_id IS NOT NULL));
    ALTER TABLE images DROP CONSTRAINT images_purpose_known;
    ALTER TABLE images ADD CONSTRAINT images_purpose_known CHECK (purpose IN (${purposes}));
  `);
}
