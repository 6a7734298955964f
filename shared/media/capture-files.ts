// The files of deleted captures (migration 20261125001100_screenshot_uploads): a capture's row goes at once,
// and a trigger holds its image and thumbnail in `deleted_capture_files`. They stay while a layout of the
// capture's author names it (`{kind: screenshot, id: <public id>}` in the draft or the published copy; a
// reference to another person's capture draws nothing, so only the author's layout counts), and go with the
// first media.cleanup after that. Released keys pass through `orphaned_media` in the statement that
// releases them, so a crash before the files are deleted leaves them queued, never forgotten.
import type { Knex } from 'knex';
import type { MediaStorage } from '../platform/storage/media-storage.js';
import { removeOrphans } from './orphaned-media.js';

// `$.**` visits every level of the document; capture references are the only objects with kind "screenshot".
const NAMES_CAPTURE = `$.** \\? (@.kind == "screenshot" && @.id == $id)`;

const NAMED = `EXISTS (SELECT 1 FROM profile_layouts l WHERE l.account_id = d.account_id AND (
  jsonb_path_exists(l.draft, '${NAMES_CAPTURE}', jsonb_build_object('id', d.public_id))
  OR jsonb_path_exists(coalesce(l.published, 'null'), '${NAMES_CAPTURE}', jsonb_build_object('id', d.public_id))))`;

/** Removes the held files of deleted captures no layout of their author names; answers how many. */
export async function releaseUnnamedCaptureFiles(knex: Knex, media: MediaStorage): Promise<number> {
  const { rows } = await knex.raw<{ rows: Array<{ storage_key: string }> }>(
    `WITH released AS (DELETE FROM deleted_capture_files d WHERE NOT ${NAMED} RETURNING d.storage_key)
     INSERT INTO orphaned_media (storage_key) SELECT storage_key FROM released
     ON CONFLICT (storage_key) DO UPDATE SET created_at = orphaned_media.created_at
     RETURNING storage_key`,
  );
  return removeOrphans(
    knex,
    media,
    rows.map((row) => row.storage_key),
  );
}
