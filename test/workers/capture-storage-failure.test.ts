// A capture whose thumbnail cannot be stored (the disk filled up after its image was written): the upload
// answers 500, and the image already stored is removed at once, not served with 200 until the next
// media.cleanup an hour or a day later. The real route, the real image.process handler (pg-boss, an image
// thread) and the real local storage, which refuses the thumbnail as a full disk would.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { CAPTURE_THUMBNAIL_FOLDER } from '../../shared/media/rows.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { uploadCapture } from '../helpers/captures.js';
import { signedInClient } from '../helpers/factories.js';
import { testMedia, useImageWorker, withPut } from '../helpers/image-worker.js';
import { catalogGame } from '../helpers/people.js';
import { useTestApp } from '../helpers/test-app.js';

describe('image.process: a capture whose thumbnail cannot be stored', function () {
  this.timeout(60000);
  useCleanDatabase();
  const media = testMedia();
  const app = useTestApp({ media });
  /** Every key the worker asked to store, in order. */
  const written: string[] = [];
  // The worker's storage: the same folder the app serves, out of room from the thumbnail on.
  const full = withPut(media, async (key, body, type) => {
    written.push(key);
    if (key.startsWith(`${CAPTURE_THUMBNAIL_FOLDER}/`)) {
      throw Object.assign(new Error(`ENOSPC: no space left on device, write '${key}'`), { code: 'ENOSPC' });
    }
    return media.put(key, body, type);
  });
  useImageWorker(() => media, { media: full });

  it('answers 500 and leaves no file served: the stored image is removed at once', async () => {
    const { site, account } = await signedInClient(app.client);
    const game = await catalogGame();
    const res = await uploadCapture(site, { game_id: String(game.id), description: 'No room' });
    expect(res.status, res.text).to.equal(500);
    expect(res.body.error).to.include({ code: 'internal', reason: 'upload_failed' });

    const image = written.find((key) => key.startsWith('screenshots/') && !key.startsWith(CAPTURE_THUMBNAIL_FOLDER));
    const thumbnail = written.find((key) => key.startsWith(`${CAPTURE_THUMBNAIL_FOLDER}/`));
    expect(image, written.join(', ')).to.be.a('string');
    expect(thumbnail, written.join(', ')).to.be.a('string');
    // The image was stored before the thumbnail failed; it is gone as the route answers.
    for (const key of [image!, thumbnail!]) {
      const served = await app.client.get(`/media/${key}`);
      expect(served.status, key).to.equal(404);
    }
    const left = await readdir(path.join(media.root, 'screenshots'), { recursive: true, withFileTypes: true });
    expect(left.filter((entry) => entry.isFile()).map((entry) => entry.name)).to.deep.equal([]);
    // Nothing recorded, and nothing left queued for media.cleanup: the files are already gone.
    expect(await db()('screenshots').where({ account_id: account.id })).to.have.length(0);
    expect(await db()('orphaned_media').whereIn('storage_key', [image!, thumbnail!])).to.have.length(0);
  });
});
