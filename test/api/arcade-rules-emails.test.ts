// "Developer emailed" (spec arcade.md: States and transitions; DECISIONS: Email) on store-page submit,
// release submit and make live, followed to the message itself: the outbox row, then the .eml file the
// real email.send handler writes (no SMTP_URL), addressed to the developer and saying what happened.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { arcadeDeveloper, enabledGame, listingBody, releaseBody, serveGame } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { startFakeHost, type FakeHost } from '../helpers/fake-host.js';
import { useJobWorker } from '../helpers/job-worker.js';
import { staffMember } from '../helpers/moderation.js';
import { useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

interface Mail {
  to: string;
  subject: string;
  body: string;
}

/** Headers and text of an .eml file as nodemailer writes it (7bit or quoted-printable text). */
function parseEml(eml: string): Mail {
  const split = eml.indexOf('\n\n');
  const head = eml.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1]?.trim() ?? '';
  let body = eml.slice(split + 2);
  if (/quoted-printable/i.test(header('Content-Transfer-Encoding'))) {
    body = Buffer.from(
      body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
  }
  return { to: header('To'), subject: header('Subject'), body };
}

describe('Arcade rules: the developer is emailed', function () {
  this.timeout(60000);
  useCleanDatabase();
  const worker = useJobWorker(['url.check', 'email.send']);
  const app = useTestApp();
  let host: FakeHost;

  before(async () => {
    host = await startFakeHost();
  });
  after(() => host.close());

  it('on store-page submit, release submit and live: one message each, to the developer, saying which', async () => {
    const dev = await arcadeDeveloper(app.client);
    const moderator = await staffMember(app.client, 'mod_rules_mail');
    await enabledGame(dev, 'mailed-rocks');
    serveGame(host, dev.app.id);
    const base = `/api/v1/account/apps/${dev.app.id}/arcade`;
    const seen = new Set<string>();

    /** The one message `move` queued, once the worker has written it: the outbox row and the .eml file. */
    async function mailOf(move: () => Promise<{ status: number; text: string }>) {
      const before = new Set<string>(await db()('email_outbox').pluck('id'));
      const res = await move();
      expect(res.status, res.text).to.equal(200);
      const made = (await db()('email_outbox').select('id', 'to_address', 'kind', 'subject')).filter(
        (row: { id: string }) => !before.has(row.id),
      );
      expect(made, 'one message per move').to.have.length(1);
      const [row] = made;
      seen.add(row.id);
      expect([row.to_address, row.kind]).to.deep.equal([dev.email, 'arcade.notice']);
      await until(async () => (await db()('email_outbox').where({ id: row.id }).first('sent_at')).sent_at !== null);
      return parseEml(await readFile(path.join(worker.mailDir, `${row.id}.eml`), 'utf8'));
    }

    expect((await dev.site.put(`${base}/listing`, listingBody({ name: 'Mailed Rocks' }))).status).to.equal(200);
    const listing = await mailOf(() => dev.site.post(`${base}/listing/submit`));
    expect(listing.to).to.include(dev.email);
    expect(listing.subject).to.equal('Store page of mailed-rocks submitted');
    expect(listing.body).to.match(/store page of mailed-rocks is waiting for review/);

    const created = await dev.site.post(`${base}/releases`, releaseBody(host));
    const id = created.body.data.release.id as string;
    const submitted = await mailOf(() => dev.site.post(`${base}/releases/${id}/submit`));
    expect(submitted.to).to.include(dev.email);
    expect(submitted.subject).to.equal('Release 1 of mailed-rocks submitted');
    expect(submitted.body).to.include(`Release 1 of mailed-rocks (${host.url('/play/')}) is waiting for review.`);

    const approved = await moderator.site.post(`/api/v1/moderation/arcade/releases/${id}`, { decision: 'approve' });
    expect(approved.status, approved.text).to.equal(200);
    const live = await mailOf(() => dev.site.post(`${base}/releases/${id}/live`));
    expect(live.to).to.include(dev.email);
    expect(live.subject).to.equal('Release 1 of mailed-rocks is live');
    expect(live.body).to.include('Players now get release 1 of mailed-rocks.');

    // The moves' messages went to the developer only: nothing of them reached the moderator.
    const toModerator = await db()('email_outbox').where({ to_address: moderator.email });
    expect(toModerator.filter((row: { id: string }) => seen.has(row.id))).to.have.length(0);
  });

  it('sends nothing for a move that was refused', async () => {
    const dev = await arcadeDeveloper(app.client);
    await enabledGame(dev, 'unmailed-rocks');
    const other = await startFakeHost();
    try {
      // The proof names another app: the submit's check fails and no release is submitted.
      serveGame(other, 'some-other-app');
      const base = `/api/v1/account/apps/${dev.app.id}/arcade`;
      const created = await dev.site.post(`${base}/releases`, releaseBody(other));
      const refused = await dev.site.post(`${base}/releases/${created.body.data.release.id}/submit`);
      expect([refused.status, refused.body.error.reason]).to.deep.equal([409, 'check_failed']);
      // A store page with no draft cannot be submitted either.
      expect((await dev.site.post(`${base}/listing/submit`)).status).to.equal(404);
      expect(await db()('email_outbox').where({ to_address: dev.email })).to.have.length(0);
    } finally {
      await other.close();
    }
  });
});
