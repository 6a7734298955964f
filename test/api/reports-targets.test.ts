// What each report kind finds (spec: Reports, `id`): reviews and diary entries by uuid, lists and
// screenshots by public id, comments by kind, and the snapshot moderation reads later.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { comment, journey, list, namedPerson, playSession, review, screenshot } from '../helpers/people.js';
import { useTestApp } from '../helpers/test-app.js';

describe('POST /reports: targets', () => {
  useCleanDatabase();
  const app = useTestApp();

  let reporter: Awaited<ReturnType<typeof namedPerson>>;
  let owner: Awaited<ReturnType<typeof namedPerson>>;
  before(async () => {
    reporter = await namedPerson(app.client, 'tgt_reporter');
    owner = await namedPerson(app.client, 'tgt_owner');
  });

  async function report(on: string, id: string, reason = 'SPAM', username = 'tgt_owner') {
    return reporter.site.post('/api/v1/reports', { on, username, id, reason });
  }
  const stored = (targetId: string) =>
    db()('reports').where({ reporter_id: reporter.account.id, target_id: targetId }).first();

  it('finds a review by id and keeps what it said', async () => {
    const written = await review(owner.account.id, { body: 'Spoils the ending', contains_spoilers: false });
    expect((await report('REVIEW', written.id as string, 'SPOILER')).status).to.equal(201);
    const row = await stored(written.id as string);
    expect(row).to.include({ target_kind: 'REVIEW', target_account_id: owner.account.id, priority: 2 });
    expect(row.snapshot).to.include({ kind: 'review', id: written.id, body: 'Spoils the ending' });
  });

  it('finds a list and a screenshot by their public ids, not their row ids', async () => {
    const made = await list(owner.account.id, { title: 'Worst people' });
    expect((await report('LIST', made.id as string)).status).to.equal(404);
    expect((await report('LIST', made.public_id as string, 'HATE_SPEECH')).status).to.equal(201);
    expect((await stored(made.public_id as string)).snapshot).to.include({ title: 'Worst people' });

    const shot = await screenshot(owner.account.id, { description: 'look' });
    expect((await report('SCREENSHOT', shot.id as string)).status).to.equal(404);
    expect((await report('SCREENSHOT', shot.public_id as string, 'SEXUAL_CONTENT')).status).to.equal(201);
    expect((await stored(shot.public_id as string)).snapshot).to.include({
      description: 'look',
      image_key: shot.image_key,
    });
  });

  it('does not find a screenshot moderation already removed', async () => {
    const shot = await screenshot(owner.account.id, { removed_at: new Date() });
    expect((await report('SCREENSHOT', shot.public_id as string)).status).to.equal(404);
  });

  it('finds a diary entry: a play session or a journey', async () => {
    const played = await playSession(owner.account.id, { note: 'rage quit' });
    const run = await journey(owner.account.id, { title: 'The run' });
    expect((await report('DIARY', played.id as string, 'HARASSMENT')).status).to.equal(201);
    expect((await report('DIARY', run.id as string, 'HARASSMENT')).status).to.equal(201);
    expect((await stored(played.id as string)).snapshot).to.include({ kind: 'diary', note: 'rage quit' });
    expect((await stored(run.id as string)).snapshot).to.include({ kind: 'journey', title: 'The run' });
    // A private session is the owner's alone.
    const secret = await playSession(owner.account.id, { visibility: 'PRIVATE' });
    expect((await report('DIARY', secret.id as string)).status).to.equal(404);
  });

  it('finds a profile comment by its author, on anyone’s profile (the reporter’s own included)', async () => {
    const host = await namedPerson(app.client, 'tgt_host');
    const onHost = await comment(owner.account.id, host.account.id, { body: 'you are awful' });
    const onMine = await comment(owner.account.id, reporter.account.id, { body: 'and you too' });
    expect((await report('PROFILE_COMMENT', onHost.id as string, 'HARASSMENT')).status).to.equal(201);
    expect((await report('PROFILE_COMMENT', onMine.id as string, 'HARASSMENT')).status).to.equal(201);
    const row = await stored(onHost.id as string);
    expect(row.snapshot).to.deep.include({ body: 'you are awful' });
    expect(row.snapshot.on).to.include({ kind: 'PROFILE', username: 'tgt_host' });
    // The comment is the author's: under the host's name it is not found.
    expect((await report('PROFILE_COMMENT', onHost.id as string, 'SPAM', 'tgt_host')).status).to.equal(404);
  });

  it('hides a private account’s conversation from those who do not follow it', async () => {
    const closed = await namedPerson(app.client, 'tgt_closed', 'PRIVATE');
    const said = await comment(owner.account.id, closed.account.id, { body: 'hidden words' });
    expect((await report('PROFILE_COMMENT', said.id as string)).status).to.equal(404);
  });

  it('finds a content comment through the thing it is on, by that thing’s visibility', async () => {
    const host = await namedPerson(app.client, 'tgt_content_host');
    const open = await review(host.account.id);
    const closed = await review(host.account.id, { visibility: 'PRIVATE' });
    const onOpen = await comment(owner.account.id, host.account.id, {
      target_kind: 'REVIEW',
      target_id: open.id,
      body: 'rude reply',
    });
    const onClosed = await comment(owner.account.id, host.account.id, {
      target_kind: 'REVIEW',
      target_id: closed.id,
    });
    expect((await report('CONTENT_COMMENT', onOpen.id as string, 'HARASSMENT')).status).to.equal(201);
    expect((await stored(onOpen.id as string)).snapshot.on).to.include({ kind: 'REVIEW', id: open.id });
    expect((await report('CONTENT_COMMENT', onClosed.id as string)).status).to.equal(404);
  });

  it('keeps the two comment kinds apart', async () => {
    const host = await namedPerson(app.client, 'tgt_kinds_host');
    const thing = await review(host.account.id);
    const onProfile = await comment(owner.account.id, host.account.id);
    const onThing = await comment(owner.account.id, host.account.id, { target_kind: 'REVIEW', target_id: thing.id });
    expect((await report('CONTENT_COMMENT', onProfile.id as string)).status).to.equal(404);
    expect((await report('PROFILE_COMMENT', onThing.id as string)).status).to.equal(404);
    const removed = await comment(owner.account.id, host.account.id, { removed_at: new Date() });
    expect((await report('PROFILE_COMMENT', removed.id as string)).status).to.equal(404);
  });

  it('puts CHILD_SAFETY, SELF_HARM and VIOLENCE first in priority', async () => {
    const urgent = await review(owner.account.id);
    expect((await report('REVIEW', urgent.id as string, 'SELF_HARM')).status).to.equal(201);
    expect((await stored(urgent.id as string)).priority).to.equal(0);
  });
});
