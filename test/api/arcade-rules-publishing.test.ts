// A publisher block (spec arcade.md: Endpoints, "403 publisher_blocked on all listing, media, release,
// check, submit, live and override routes") on the moves the other files leave untested: store-page
// submit, check, release submit, withdraw and live. Each move is ready to succeed, is refused while the
// block stands (changing nothing, spending nothing), and succeeds once it is lifted.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { arcadeDeveloper, enabledGame, listingBody, releaseBody, serveGame } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { startFakeHost, type FakeHost } from '../helpers/fake-host.js';
import { useJobWorker } from '../helpers/job-worker.js';
import { staffMember } from '../helpers/moderation.js';
import { useTestApp } from '../helpers/test-app.js';

type Res = { status: number; text: string; body: { error?: { code?: string; reason?: string } } };
const refusal = (res: Res) => [res.status, res.body.error?.code, res.body.error?.reason];
const BLOCKED = [403, 'forbidden', 'publisher_blocked'];

describe('Arcade rules: a publisher block on check, submit, withdraw and live', function () {
  this.timeout(60000);
  useCleanDatabase();
  useJobWorker(['url.check', 'email.send']);
  const app = useTestApp();
  let host: FakeHost;

  before(async () => {
    host = await startFakeHost();
  });
  after(() => host.close());

  it('refuses each move while moderation blocks the account, and lets the same move through once lifted', async () => {
    const dev = await arcadeDeveloper(app.client);
    const moderator = await staffMember(app.client, 'mod_rules_block');
    await enabledGame(dev, 'blocked-moves');
    serveGame(host, dev.app.id);
    const base = `/api/v1/account/apps/${dev.app.id}/arcade`;
    const create = async () => {
      const res = await dev.site.post(`${base}/releases`, releaseBody(host));
      expect(res.status, res.text).to.equal(201);
      return res.body.data.release.id as string;
    };
    const submit = (id: string) => dev.site.post(`${base}/releases/${id}/submit`);
    // One release for each move: a draft (check, submit), a submitted one (withdraw), an approved one (live).
    const draft = await create();
    const queued = await create();
    expect((await submit(queued)).status).to.equal(200);
    const approved = await create();
    expect((await submit(approved)).status).to.equal(200);
    const decided = await moderator.site.post(`/api/v1/moderation/arcade/releases/${approved}`, {
      decision: 'approve',
    });
    expect(decided.status, decided.text).to.equal(200);
    expect((await dev.site.put(`${base}/listing`, listingBody())).status).to.equal(200);

    const statusOf = async (id: string) => (await db()('arcade_releases').where({ id }).first('status')).status;
    const checksOf = async (id: string) => (await db()('arcade_checks').where({ release_id: id })).length;
    const checkUses = async () =>
      (
        await db()('rate_limits')
          .where({ key: `attempt:arcade-check:${dev.app.id}` })
          .first('points')
      )?.points ?? 0;
    const liveRelease = async () =>
      (await db()('arcade_apps').where({ app_id: dev.app.id }).first('live_release_id')).live_release_id;
    const checksBefore = await checksOf(draft);
    const usesBefore = await checkUses();

    await db()('publisher_blocks').insert({ account_id: dev.account.id });
    expect(refusal(await dev.site.post(`${base}/listing/submit`)), 'listing submit').to.deep.equal(BLOCKED);
    expect(refusal(await dev.site.post(`${base}/releases/${draft}/check`)), 'check').to.deep.equal(BLOCKED);
    expect(refusal(await submit(draft)), 'submit').to.deep.equal(BLOCKED);
    expect(refusal(await dev.site.post(`${base}/releases/${queued}/withdraw`)), 'withdraw').to.deep.equal(BLOCKED);
    expect(refusal(await dev.site.post(`${base}/releases/${approved}/live`)), 'live').to.deep.equal(BLOCKED);
    // Nothing moved, nothing was fetched, and none of the day's 20 checks was spent.
    expect([await statusOf(draft), await statusOf(queued), await statusOf(approved)]).to.deep.equal([
      'draft',
      'submitted',
      'approved',
    ]);
    expect(await checksOf(draft)).to.equal(checksBefore);
    expect(await checkUses()).to.equal(usesBefore);
    expect(await liveRelease()).to.equal(null);
    expect(await db()('arcade_listings').where({ app_id: dev.app.id, status: 'submitted' })).to.have.length(0);

    // Lifted: the very same requests go through, so the block was what refused them.
    await db()('publisher_blocks').where({ account_id: dev.account.id }).delete();
    expect((await dev.site.post(`${base}/listing/submit`)).status).to.equal(200);
    const checked = await dev.site.post(`${base}/releases/${draft}/check`);
    expect([checked.status, checked.body.data?.check?.passed]).to.deep.equal([200, true]);
    expect((await submit(draft)).body.data.release.status).to.equal('submitted');
    expect((await dev.site.post(`${base}/releases/${queued}/withdraw`)).body.data.release.status).to.equal('withdrawn');
    const live = await dev.site.post(`${base}/releases/${approved}/live`);
    expect(live.status, live.text).to.equal(200);
    expect(await liveRelease()).to.equal(approved);
  });
});
