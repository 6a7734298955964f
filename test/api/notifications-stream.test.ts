// GET /notifications/stream (DECISIONS: Notifications): `ready` with the unread count, each new notification
// as GET /notifications shows it within 2 seconds, to every open stream of its recipient and no one else; a
// changed notification again; a resume by Last-Event-ID that misses and repeats nothing, in pages; the
// session only; and a client that stops reading, which is cut off with a bounded buffer and resumes without
// a gap. Two processes on one database: test/processes/notification-stream.test.ts.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import pg from 'pg';
import { notify } from '../../shared/notifications/notify.js';
import { NOTIFICATION_CHANNEL } from '../../shared/notifications/rows.js';
import type { NotificationInput } from '../../shared/notifications/rows.js';
import { openNotificationStreams, STREAM_PAGE, STREAM_REREAD_MS } from '../../shared/notifications/stream-hub.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import { notificationStream, type OpenStream, type StreamEvent } from '../helpers/event-stream.js';
import { block, namedPerson, type NamedPerson } from '../helpers/people.js';
import { refused } from '../helpers/social-things.js';
import { useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

const notificationsOf = (stream: OpenStream) => stream.events.filter((e) => e.event === 'notification');
const seqsOf = (events: StreamEvent[]) => events.map((e) => Number(e.id));

/** A comment notification with a body of 140 characters, as the writers cut them (or `size` characters). */
const commented = (recipient: NamedPerson, actor: NamedPerson, size = 140): NotificationInput => ({
  recipientId: recipient.account.id,
  kind: 'comment',
  actorId: actor.account.id,
  subject: { kind: 'REVIEW', id: randomUUID() },
  data: { comment_id: randomUUID(), body: 'é'.repeat(size) },
});

/** `count` notifications, `perTransaction` in each commit (each commit wakes the streams once). */
async function writeMany(input: NotificationInput, count: number, perTransaction = 100): Promise<void> {
  for (let done = 0; done < count; done += perTransaction) {
    await db().transaction(async (trx) => {
      for (let i = done; i < Math.min(count, done + perTransaction); i += 1) {
        await notify(trx, { ...input, data: { ...input.data, comment_id: randomUUID() } });
      }
    });
  }
}

describe('notifications: the live stream', () => {
  useCleanDatabase();
  const app = useTestApp();
  const open: OpenStream[] = [];
  const stream = (person: NamedPerson, lastEventId?: string, paused = false) => {
    const opened = notificationStream(app.client.baseUrl, person.site, { lastEventId, paused });
    open.push(opened);
    return opened;
  };
  afterEach(async () => {
    for (const opened of open.splice(0)) opened.close();
    // Every stream gives back its place in the hub, its listener and its timer.
    await until(async () => openNotificationStreams() === 0, 3000);
  });

  it('sends ready, then each new notification within 2 seconds to every stream of its recipient alone', async () => {
    const reader = await namedPerson(app.client, 'ns_reader');
    const actor = await namedPerson(app.client, 'ns_actor');
    await notify(db(), { recipientId: reader.account.id, kind: 'follow', actorId: actor.account.id });
    const [first, second, theirs] = [stream(reader), stream(reader), stream(actor)];
    expect(await first.head).to.deep.equal({ status: 200, type: 'text/event-stream; charset=utf-8' });
    await until(async () => [first, second, theirs].every((s) => s.events.length > 0));
    expect(first.events).to.deep.equal([{ id: null, event: 'ready', data: { unread: 1 } }]);
    expect(theirs.events[0].data).to.deep.equal({ unread: 0 });
    // Opened after it: the notification written before is not sent again.
    expect(openNotificationStreams()).to.equal(3);

    const written = Date.now();
    await notify(db(), commented(reader, actor));
    await until(async () => notificationsOf(first).length > 0 && notificationsOf(second).length > 0, 2000);
    expect(Date.now() - written).to.be.lessThan(2000);
    const shown = (await reader.site.get('/api/v1/notifications?limit=1')).body.data[0];
    const seq = (await db()('notifications').where({ id: shown.id }).first('seq')).seq;
    for (const opened of [first, second]) {
      expect(notificationsOf(opened)).to.deep.equal([{ id: String(seq), event: 'notification', data: shown }]);
    }
    expect(notificationsOf(theirs)).to.deep.equal([]);
  });

  it('sends a notification again when it changes, and nothing from a person blocked either way', async () => {
    const reader = await namedPerson(app.client, 'ns_changes');
    const fan = await namedPerson(app.client, 'ns_fan');
    const blocked = await namedPerson(app.client, 'ns_rude');
    const subject = { kind: 'REVIEW', id: randomUUID() };
    await notify(db(), {
      recipientId: reader.account.id,
      kind: 'like',
      actorId: fan.account.id,
      subject,
      data: { count: 1 },
    });
    await notify(db(), { recipientId: reader.account.id, kind: 'follow', actorId: blocked.account.id });
    const live = stream(reader);
    await until(async () => live.events.length > 0);
    expect(live.events[0].data).to.deep.equal({ unread: 2 });

    // The like collapses another one in: the same notification comes again, with a higher event id.
    const like = await db()('notifications').where({ account_id: reader.account.id, kind: 'like' }).first();
    await db()('notifications')
      .where({ id: like.id })
      .update({ data: { count: 2 } });
    await until(async () => notificationsOf(live).length === 1, 2000);
    const [again] = notificationsOf(live);
    expect(again.data).to.include({ id: like.id, kind: 'like' });
    expect(again.data.data).to.deep.equal({ count: 2 });
    expect(Number(again.id)).to.be.greaterThan(Number(like.seq));

    // A block written straight (its command would remove the unread one): the change is not sent.
    await block(reader.account.id, blocked.account.id);
    await db()('notifications')
      .where({ account_id: reader.account.id, actor_id: blocked.account.id })
      .update({ data: { edited: true } });
    await notify(db(), { recipientId: reader.account.id, kind: 'follow', actorId: null });
    await until(async () => notificationsOf(live).length === 2, 2000);
    expect(notificationsOf(live)[1].data).to.include({ kind: 'follow', actor: null });
    expect(notificationsOf(live).some((e) => e.data.actor?.id === blocked.account.id)).to.equal(false);
  });

  it('resumes after Last-Event-ID with every notification since, in pages, none twice', async () => {
    const reader = await namedPerson(app.client, 'ns_resume');
    const actor = await namedPerson(app.client, 'ns_resume_actor');
    const live = stream(reader);
    await until(async () => live.events.length > 0);
    await writeMany(commented(reader, actor), 3, 1);
    await until(async () => notificationsOf(live).length === 3, 2000);
    const last = notificationsOf(live)[2].id!;
    live.close();
    await until(async () => openNotificationStreams() === 0, 2000);

    // More than two pages while away.
    const away = 2 * STREAM_PAGE + 50;
    await writeMany(commented(reader, actor), away);
    const resumed = stream(reader, last);
    await until(async () => notificationsOf(resumed).length === away, 5000);
    expect(resumed.events[0]).to.deep.equal({ id: null, event: 'ready', data: { unread: 3 + away } });
    const expected = await db()('notifications')
      .where({ account_id: reader.account.id })
      .where('seq', '>', Number(last))
      .orderBy('seq')
      .pluck('seq');
    expect(seqsOf(notificationsOf(resumed))).to.deep.equal(expected.map(Number));
    // Then live again, after them.
    await notify(db(), commented(reader, actor));
    await until(async () => notificationsOf(resumed).length === away + 1, 2000);
    expect(new Set(seqsOf(notificationsOf(resumed))).size).to.equal(away + 1);

    // Without Last-Event-ID, what comes next only; an id past everything there is, the same.
    const fresh = stream(reader);
    const beyond = stream(reader, '999999999');
    await until(async () => fresh.events.length > 0 && beyond.events.length > 0);
    await notify(db(), commented(reader, actor));
    await until(async () => notificationsOf(fresh).length === 1 && notificationsOf(beyond).length === 1, 2000);
    expect(notificationsOf(beyond)).to.deep.equal(notificationsOf(fresh));
  });

  it('announces only notifications to someone with a stream open, and stops when the last one closes', async () => {
    const reader = await namedPerson(app.client, 'ns_gate');
    const actor = await namedPerson(app.client, 'ns_gate_actor');
    const listener = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (message) => heard.push(message.payload ?? ''));
    try {
      await listener.query(`LISTEN ${NOTIFICATION_CHANNEL}`);
      const listening = () => db()('notification_listeners').where({ account_id: reader.account.id }).count({ n: '*' });
      // No stream: written, read later, no NOTIFY (NOTIFYing transactions commit one at a time).
      await notify(db(), commented(reader, actor));
      const marker = await namedPerson(app.client, 'ns_gate_marker');
      const markerStream = stream(marker);
      await until(async () => markerStream.events.length > 0);
      await notify(db(), commented(marker, actor));
      await until(async () => heard.includes(marker.account.id));
      expect(heard).to.not.include(reader.account.id);
      // A stream open: announced. Two streams, one closed: still. Both closed: the row goes.
      const first = stream(reader);
      const second = stream(reader);
      await until(async () => first.events.length > 0 && second.events.length > 0);
      expect(Number((await listening())[0].n)).to.equal(1);
      await notify(db(), commented(reader, actor));
      await until(async () => heard.includes(reader.account.id));
      first.close();
      heard.length = 0;
      await notify(db(), commented(reader, actor));
      await until(async () => heard.includes(reader.account.id));
      second.close();
      await until(async () => Number((await listening())[0].n) === 0);
    } finally {
      await listener.end();
    }
  });

  it('delivers a notification whose NOTIFY was lost by the slow re-read', async function () {
    this.timeout(STREAM_REREAD_MS + 10_000);
    const reader = await namedPerson(app.client, 'ns_lost');
    const actor = await namedPerson(app.client, 'ns_lost_actor');
    const live = stream(reader);
    await until(async () => live.events.length > 0);
    // As if the listening connection were reconnecting: the row commits, the NOTIFY never comes.
    await db().transaction(async (trx) => {
      await trx.raw('ALTER TABLE notifications DISABLE TRIGGER notifications_announced');
      await notify(trx, commented(reader, actor));
      await trx.raw('ALTER TABLE notifications ENABLE TRIGGER notifications_announced');
    });
    await until(async () => notificationsOf(live).length === 1, STREAM_REREAD_MS + 2000);
  });

  it('is the website’s session’s alone, and refuses a Last-Event-ID it never gave', async () => {
    const reader = await namedPerson(app.client, 'ns_access');
    const anonymous = notificationStream(app.client.baseUrl, null);
    expect((await anonymous.head).status).to.equal(401);
    await anonymous.ended;
    expect(JSON.parse(anonymous.text()).error.code).to.equal('unauthorized');
    const { token } = await appWithKey(reader.account.id, ['notifications.read']);
    const keyStream = notificationStream(app.client.baseUrl, null, { headers: { authorization: `Bearer ${token}` } });
    expect((await keyStream.head).status).to.equal(403);
    await keyStream.ended;
    expect(JSON.parse(keyStream.text()).error.code).to.equal('forbidden');
    for (const bad of ['abc', '-1', '1.5', '12345678901234567890']) {
      const refusedStream = notificationStream(app.client.baseUrl, reader.site, { lastEventId: bad });
      expect((await refusedStream.head).status, bad).to.equal(400);
      await refusedStream.ended;
      expect(JSON.parse(refusedStream.text()).error).to.include({
        code: 'invalid_request',
        field: 'Last-Event-ID',
        reason: 'bad_format',
      });
    }
    refused(await reader.site.get('/api/v1/notifications/stream', { headers: { 'last-event-id': 'x' } }), 400, {
      field: 'Last-Event-ID',
    });
    expect(openNotificationStreams()).to.equal(0);
  });

  it('cuts off a client that stops reading with a bounded buffer; its resume misses nothing', async () => {
    const reader = await namedPerson(app.client, 'ns_slow');
    const actor = await namedPerson(app.client, 'ns_slow_actor');
    const slow = stream(reader, undefined, true);
    expect((await slow.head).status).to.equal(200);
    await until(async () => openNotificationStreams() === 1);
    // Large ones (8 KB): the kernel's socket buffers on loopback take megabytes before the process holds any.
    const total = 2000;
    await writeMany(commented(reader, actor, 4000), total);
    // The server lets the stream go while the client still has not read a byte.
    await until(async () => openNotificationStreams() === 0, 10_000);
    expect(slow.bytes()).to.equal(0);

    slow.read();
    await slow.ended;
    const got = notificationsOf(slow);
    const eventBytes = Buffer.byteLength(
      `id: 1000\nevent: notification\ndata: ${JSON.stringify((await reader.site.get('/api/v1/notifications?limit=1')).body.data[0])}\n\n`,
    );
    // What reached the client is what the kernel and the capped buffer held, far from all it was sent.
    expect(got.length).to.be.lessThan(total / 2);
    expect(slow.bytes()).to.be.lessThan((total * eventBytes) / 2);

    const resumed = stream(reader, got.at(-1)!.id!);
    await until(async () => notificationsOf(resumed).length === total - got.length, 10_000);
    const seqs = [...seqsOf(got), ...seqsOf(notificationsOf(resumed))];
    const all = await db()('notifications').where({ account_id: reader.account.id }).orderBy('seq').pluck('seq');
    expect(seqs).to.deep.equal(all.map(Number));
    expect(seqs).to.have.length(total);
  });
});
