// Blocked networks hold every address of a host (host-rules.ts), through the real routes: the check,
// submit and live moves of a release (its entry and data events hosts) and the development URL's save.
// DNS is the outbound guard's test door, in process, answering several addresses for one name: the first
// is the local https server standing in for the developer's host (the one the guard connects to), a later
// one a loopback address nothing listens on, which the operator blocks. Before this rule looked at the
// first answer only, so each refusal here passed.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { arcadeDeveloper, enabledGame, listingBody, releaseBody, serveGame } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { enterDoor, startFakeHost, type FakeHost } from '../helpers/fake-host.js';
import { useJobWorker } from '../helpers/job-worker.js';
import { staffMember } from '../helpers/moderation.js';
import { testCertificates } from '../helpers/test-ca.js';
import { useTestApp } from '../helpers/test-app.js';

type Res = { status: number; text: string; body: { error?: { reason?: string; field?: string; detail?: unknown } } };
const refusal = (res: Res) => [res.status, res.body.error?.reason, res.body.error?.detail, res.body.error?.field];

/** The second answer of every name below: blocked while a test says so. */
const BLOCKED_ANSWER = '127.0.0.2';

describe('Arcade: every address of a host is held against the blocked networks', function () {
  this.timeout(60000);
  useCleanDatabase();
  useJobWorker(['url.check', 'email.send']);
  const app = useTestApp();
  let host: FakeHost;
  const leave: (() => void)[] = [];
  let names = 0;

  before(async () => {
    host = await startFakeHost();
  });
  after(async () => {
    for (const out of leave) out();
    await host.close();
  });
  afterEach(() => db()('arcade_blocked_networks').delete());

  const block = () => db()('arcade_blocked_networks').insert({ network: `${BLOCKED_ANSWER}/32` });

  /** A fresh name answering the fake host first and BLOCKED_ANSWER second. */
  async function twoAnswerName(prefix: string): Promise<string> {
    const name = `${prefix}-${++names}.jogatina.test`;
    const { caFile } = await testCertificates();
    leave.push(enterDoor(name, `127.0.0.1:${host.port}|${BLOCKED_ANSWER}`, caFile));
    return name;
  }

  async function game(slug: string) {
    const dev = await arcadeDeveloper(app.client);
    await enabledGame(dev, slug);
    serveGame(host, dev.app.id);
    const base = `/api/v1/account/apps/${dev.app.id}/arcade`;
    const checks = async (releaseId: string) => (await db()('arcade_checks').where({ release_id: releaseId })).length;
    return { dev, base, checks };
  }

  it('check and submit refuse an entry host with one blocked answer, spending no check; unblocked, both pass', async () => {
    const { dev, base, checks } = await game('two-answers');
    // The fake host also answers for the proof: the proof is the app's own on any name of it.
    const entry = `https://${await twoAnswerName('entry')}/play/`;
    const created = await dev.site.post(`${base}/releases`, releaseBody(host, { entry_url: entry }));
    expect(created.status, created.text).to.equal(201);
    const id = created.body.data.release.id as string;

    await block();
    const denied = [400, 'url_denied', 'network', 'entry_url'];
    expect(refusal(await dev.site.post(`${base}/releases/${id}/check`))).to.deep.equal(denied);
    expect(refusal(await dev.site.post(`${base}/releases/${id}/submit`))).to.deep.equal(denied);
    expect(await checks(id)).to.equal(0);

    await db()('arcade_blocked_networks').delete();
    const checked = await dev.site.post(`${base}/releases/${id}/check`);
    expect(checked.status, checked.text).to.equal(200);
    expect(checked.body.data.check.passed).to.equal(true);
    const submitted = await dev.site.post(`${base}/releases/${id}/submit`);
    expect(submitted.status, submitted.text).to.equal(200);
    expect(submitted.body.data.release.status).to.equal('submitted');
  });

  it('refuses a data events host with one blocked answer on check, submit and live, naming data_events_url', async () => {
    const { dev, base, checks } = await game('events-answers');
    const events = `https://${await twoAnswerName('events')}/events`;
    const created = await dev.site.post(
      `${base}/releases`,
      releaseBody(host, { scopes: ['identify'], data_events_url: events }),
    );
    expect(created.status, created.text).to.equal(201);
    const id = created.body.data.release.id as string;

    await block();
    const denied = [400, 'url_denied', 'network', 'data_events_url'];
    expect(refusal(await dev.site.post(`${base}/releases/${id}/check`))).to.deep.equal(denied);
    expect(refusal(await dev.site.post(`${base}/releases/${id}/submit`))).to.deep.equal(denied);
    expect(await checks(id)).to.equal(0);

    // Approved while nothing was blocked; blocked again before it goes live.
    await db()('arcade_blocked_networks').delete();
    const submitted = await dev.site.post(`${base}/releases/${id}/submit`);
    expect(submitted.status, submitted.text).to.equal(200);
    const moderator = await staffMember(app.client, 'mod_events_answers');
    const approved = await moderator.site.post(`/api/v1/moderation/arcade/releases/${id}`, { decision: 'approve' });
    expect(approved.status, approved.text).to.equal(200);
    await block();
    expect(refusal(await dev.site.post(`${base}/releases/${id}/live`))).to.deep.equal(denied);
    expect(await checks(id)).to.equal(1);
    await db()('arcade_blocked_networks').delete();
    const live = await dev.site.post(`${base}/releases/${id}/live`);
    expect(live.status, live.text).to.equal(200);
  });

  it('makes live refuse an entry host with one blocked answer', async () => {
    const { dev, base } = await game('live-answers');
    const entry = `https://${await twoAnswerName('live')}/play/`;
    const created = await dev.site.post(`${base}/releases`, releaseBody(host, { entry_url: entry }));
    const id = created.body.data.release.id as string;
    expect((await dev.site.post(`${base}/releases/${id}/submit`)).status).to.equal(200);
    const moderator = await staffMember(app.client, 'mod_live_answers');
    await moderator.site.post(`/api/v1/moderation/arcade/releases/${id}`, { decision: 'approve' });
    await block();
    expect(refusal(await dev.site.post(`${base}/releases/${id}/live`))).to.deep.equal([
      400,
      'url_denied',
      'network',
      'entry_url',
    ]);
    const liveId = await db()('arcade_apps').where({ app_id: dev.app.id }).first('live_release_id');
    expect(liveId.live_release_id).to.equal(null);
  });

  it('refuses a development URL on a public host with one blocked answer, saving nothing; unblocked, it saves', async () => {
    const { dev, base } = await game('override-answers');
    await dev.site.put(`${base}/listing`, listingBody());
    const created = await dev.site.post(`${base}/releases`, releaseBody(host));
    const releaseId = created.body.data.release.id as string;
    const url = `https://${await twoAnswerName('dev')}:8443/beta/`;

    await block();
    const refused = await dev.site.put(`${base}/override`, { url, release_id: releaseId });
    expect(refusal(refused)).to.deep.equal([400, 'url_denied', 'network', 'url']);
    expect(await db()('arcade_overrides').where({ app_id: dev.app.id })).to.have.length(0);

    await db()('arcade_blocked_networks').delete();
    const saved = await dev.site.put(`${base}/override`, { url, release_id: releaseId });
    expect(saved.status, saved.text).to.equal(200);
    expect(saved.body.data.override).to.deep.include({ url, loopback: false, ready: true });
  });
});
