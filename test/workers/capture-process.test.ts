// The image.process handler on a capture's upload (DECISIONS: Screenshots): it stores two files and records
// the capture with its feed item once; a second run finds nothing to do; an upload the route gave up on
// records nothing and keeps neither file.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { processImageJob } from '../../workers/jobs/image.process.js';
import type { JobContext } from '../../workers/job-context.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { captureJpeg } from '../helpers/captures.js';
import { buildAccount } from '../helpers/factories.js';
import { testMedia, withPut } from '../helpers/image-worker.js';
import { testWorkerServices, type TestWorkerServices } from '../helpers/worker-services.js';

describe('image.process: captures', function () {
  this.timeout(60000);
  useCleanDatabase();
  let services: TestWorkerServices;
  const media = testMedia();

  before(() => {
    services = testWorkerServices({ media });
  });
  after(() => services.close());

  function context(overrides: Partial<JobContext> = {}): JobContext {
    return { ...services, jobId: 'test', queue: 'image.process', retryCount: 0, retryLimit: 0, ...overrides };
  }

  async function stage(accountId: string): Promise<string> {
    const id = crypto.randomUUID();
    await media.put(`staging/${id}`, await captureJpeg(), 'application/octet-stream');
    await db()('image_uploads').insert({
      id,
      account_id: accountId,
      purpose: 'screenshot',
      staging_key: `staging/${id}`,
      capture: JSON.stringify({
        game_id: 7,
        description: 'From the worker',
        contains_spoilers: true,
        visibility: 'FOLLOWERS',
      }),
    });
    return id;
  }

  it('records the capture and its feed item once; a second run of the same job finds nothing to do', async () => {
    const { account } = await buildAccount();
    const id = await stage(account.id);
    const first = await processImageJob({ upload_id: id }, context());
    expect(first).to.deep.equal({ capture: { id } });
    const row = await db()('screenshots').where({ id }).first();
    expect(row).to.include({
      account_id: account.id,
      game_id: 7,
      description: 'From the worker',
      contains_spoilers: true,
      visibility: 'FOLLOWERS',
      sensitive: false,
      image_width: 320,
      thumbnail_width: 320,
    });
    expect(row.public_id).to.match(/^[a-z0-9]{12}$/);
    for (const key of [row.image_key, row.thumbnail_key]) {
      const stored = await media.get(key);
      expect(stored, key).to.not.equal(null);
      stored!.body.destroy();
    }
    expect(await db()('activity_items').where({ kind: 'screenshot', subject_id: id })).to.have.length(1);
    expect(await processImageJob({ upload_id: id }, context())).to.deep.equal({ failed: 'the upload is gone' });
    expect(await db()('screenshots').where({ account_id: account.id })).to.have.length(1);
    expect(await media.get(`staging/${id}`)).to.equal(null);
    expect(await db()('orphaned_media')).to.have.length(0);
  });

  it('records nothing and keeps neither file when the route gave up while the capture was stored', async () => {
    const { account } = await buildAccount();
    const id = await stage(account.id);
    const written: string[] = [];
    const withdrawing = withPut(media, async (key, body, type) => {
      written.push(key);
      await db()('image_uploads').where({ id }).delete();
      return media.put(key, body, type);
    });
    const answer = await processImageJob({ upload_id: id }, context({ media: withdrawing }));
    expect(answer).to.deep.equal({ failed: 'the upload was withdrawn' });
    expect(await db()('screenshots').where({ account_id: account.id })).to.have.length(0);
    expect(await db()('activity_items').where({ account_id: account.id })).to.have.length(0);
    expect(written).to.have.length(2);
    for (const key of written) expect(await media.get(key), key).to.equal(null);
    expect(await db()('orphaned_media')).to.have.length(0);
  });
});
