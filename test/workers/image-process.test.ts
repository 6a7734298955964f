// The image.process handler on its own: safe to run twice, nothing recorded for an upload the route gave
// up on, and no file left behind in either case.
import { expect } from 'chai';
import sharp from 'sharp';
import { db } from '../../shared/platform/db/knex.js';
import { processImageJob } from '../../workers/jobs/image.process.js';
import type { JobContext } from '../../workers/job-context.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { buildAccount } from '../helpers/factories.js';
import { testMedia, withPut } from '../helpers/image-worker.js';
import { testWorkerServices, type TestWorkerServices } from '../helpers/worker-services.js';

describe('image.process', function () {
  this.timeout(60000);
  useCleanDatabase();
  let services: TestWorkerServices;
  const media = testMedia();

  before(() => {
    services = testWorkerServices({ media });
  });
  after(() => services.close());

  function context(overrides: Partial<JobContext> = {}): JobContext {
    return {
      ...services,
      images: services.images,
      jobId: 'test',
      queue: 'image.process',
      retryCount: 0,
      retryLimit: 0,
      ...overrides,
    };
  }

  async function stage(accountId: string): Promise<string> {
    const id = crypto.randomUUID();
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#208040' } })
      .png()
      .toBuffer();
    await media.put(`staging/${id}`, png, 'application/octet-stream');
    await db()('image_uploads').insert({ id, account_id: accountId, purpose: 'layout', staging_key: `staging/${id}` });
    return id;
  }

  it('records the image once; a second run of the same job finds nothing to do', async () => {
    const { account } = await buildAccount();
    const id = await stage(account.id);
    const first = (await processImageJob({ upload_id: id }, context())) as { image: { id: string; url: string } };
    expect(first.image).to.include({ width: 40, height: 30 });
    const second = await processImageJob({ upload_id: id }, context());
    expect(second).to.deep.equal({ failed: 'the upload is gone' });
    expect(await db()('images').where({ account_id: account.id })).to.have.length(1);
    expect(await media.get(`staging/${id}`)).to.equal(null);
  });

  it('records nothing and keeps no file when the route gave up while the image was encoded', async () => {
    const { account } = await buildAccount();
    const id = await stage(account.id);
    const written: string[] = [];
    // The route's wait runs out just as the worker stores its result: the upload row is gone.
    const withdrawing = withPut(media, async (key, body, type) => {
      written.push(key);
      await db()('image_uploads').where({ id }).delete();
      return media.put(key, body, type);
    });
    const answer = await processImageJob({ upload_id: id }, context({ media: withdrawing }));
    expect(answer).to.deep.equal({ failed: 'the upload was withdrawn' });
    expect(await db()('images').where({ account_id: account.id })).to.have.length(0);
    expect(written).to.have.length(1);
    expect(await media.get(written[0])).to.equal(null);
    expect(await db()('orphaned_media')).to.have.length(0);
  });

  it('answers a refusal as a completed job, removing the staged file', async () => {
    const { account } = await buildAccount();
    const id = crypto.randomUUID();
    await media.put(`staging/${id}`, Buffer.from('GIF89a this is not a real gif'), 'application/octet-stream');
    await db()('image_uploads').insert({ id, account_id: account.id, purpose: 'avatar', staging_key: `staging/${id}` });
    const answer = (await processImageJob({ upload_id: id }, context())) as { refused: { reason: string } };
    expect(answer.refused.reason).to.equal('invalid_image');
    expect(await media.get(`staging/${id}`)).to.equal(null);
    expect(await db()('image_uploads')).to.have.length(0);
  });
});
