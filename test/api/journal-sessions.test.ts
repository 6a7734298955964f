// The owner's play sessions (DECISIONS: Journal), written: logging them live or closed with their minutes
// derived, the time rules (24 hours, order, the future), one live session per account under parallel starts,
// the feed item a closed session is, changes judged on the merged session, and who may call. Listing and
// deleting: journal-sessions-listed.test.ts.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import * as people from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { bearer, feedItemsOf, fromNow, journalGames } from '../helpers/journal.js';
import { useTestApp } from '../helpers/test-app.js';

const PATH = '/api/v1/journal/sessions';
const MINUTE = 60_000;
const items = (subjectId: string) => feedItemsOf('session', subjectId);

describe('the journal’s play sessions', () => {
  useCleanDatabase();
  const app = useTestApp();
  let game: { id: number; name: string; slug: string };
  let other: { id: number; name: string; slug: string };
  let n = 0;
  /** A new signed-in person: each test owns its sessions (one live session is per account). */
  const person = () => people.namedPerson(app.client, `journal_${(n += 1)}`);

  before(async () => {
    ({ game, other } = await journalGames({ platform_ids: [6, 48] }));
  });

  describe('POST /journal/sessions', () => {
    it('logs a closed session with its whole minutes, defaults, and one feed item', async () => {
      const { site, account } = await person();
      const started = new Date(Date.now() - 3 * 3600_000);
      const ended = new Date(started.getTime() + 90 * MINUTE + 59_000);
      const res = await site.post(PATH, {
        game_id: game.id,
        started_at: started.toISOString(),
        ended_at: ended.toISOString(),
      });
      expect(res.status, res.text).to.equal(201);
      const session = res.body.data;
      expect(session).to.have.keys([
        'id',
        'game_id',
        'game',
        'started_at',
        'ended_at',
        'minutes',
        'live',
        'note',
        'visibility',
        'comments',
        'removed',
        'created_at',
        'updated_at',
      ]);
      expect(session).to.deep.include({
        game_id: game.id,
        game: { slug: 'hollow-knight', name: 'Hollow Knight', cover_url: null },
        started_at: started.toISOString(),
        ended_at: ended.toISOString(),
        minutes: 90,
        live: false,
        note: '',
        visibility: 'PUBLIC',
        comments: 0,
        removed: false,
      });
      expect(session.created_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      const feed = await items(session.id);
      expect(feed).to.have.length(1);
      expect(feed[0]).to.include({ account_id: account.id, game_id: game.id, visibility: 'PUBLIC' });
    });

    it('logs a live session (no end): no minutes, no feed item; a second live one is 409 with the first’s id', async () => {
      const { site } = await person();
      const res = await site.post(PATH, {
        game_id: game.id,
        started_at: fromNow(-10),
        ended_at: null,
        note: 'Tab\there,\nand a new line.',
        visibility: 'FOLLOWERS',
      });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data).to.include({
        ended_at: null,
        minutes: null,
        live: true,
        note: 'Tab\there,\nand a new line.',
        visibility: 'FOLLOWERS',
      });
      expect(await items(res.body.data.id)).to.have.length(0);

      const second = await site.post(PATH, { game_id: other.id, started_at: fromNow(-1) });
      expect(second.status).to.equal(409);
      expect(second.body.error).to.include({ code: 'conflict', reason: 'session_running', id: res.body.data.id });
      // A closed session may still be logged beside the live one.
      const closed = await site.post(PATH, { game_id: other.id, started_at: fromNow(-200), ended_at: fromNow(-100) });
      expect(closed.status).to.equal(201);
    });

    it('starts exactly one of 10 live sessions sent at once; the nine others name it', async () => {
      const { site, account } = await person();
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => site.post(PATH, { game_id: game.id, started_at: fromNow(-i) })),
      );
      const created = answers.filter((res) => res.status === 201);
      expect(created).to.have.length(1);
      const id = created[0].body.data.id;
      const refused = answers.filter((res) => res.status === 409);
      expect(refused).to.have.length(9);
      for (const res of refused) expect(res.body.error).to.include({ reason: 'session_running', id });
      expect(await db()('play_sessions').where({ account_id: account.id })).to.have.length(1);
    });

    it('holds a session to 24 hours, its end after its start, and neither in the future', async () => {
      const { site } = await person();
      const start = new Date(Date.now() - 30 * 3600_000);
      const at = (ms: number) => new Date(start.getTime() + ms).toISOString();
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ started_at: at(0), ended_at: at(24 * 3600_000 + 1000) }, 'ended_at'],
        [{ started_at: at(0), ended_at: at(-1000) }, 'ended_at'],
        [{ started_at: fromNow(6) }, 'started_at'],
        [{ started_at: fromNow(6), ended_at: fromNow(7) }, 'started_at'],
        [{ started_at: fromNow(-60), ended_at: fromNow(6) }, 'ended_at'],
        // Before its start by less than a millisecond.
        [{ started_at: '2026-01-01T10:00:00.000600Z', ended_at: '2026-01-01T10:00:00.000100Z' }, 'ended_at'],
      ];
      for (const [times, field] of cases) {
        const res = await site.post(PATH, { game_id: game.id, ...times });
        expect(res.status, JSON.stringify(times)).to.equal(400);
        expect(res.body.error).to.include({ code: 'invalid_request', reason: 'fields_invalid', field });
      }
      const day = await site.post(PATH, { game_id: game.id, started_at: at(0), ended_at: at(24 * 3600_000) });
      expect(day.status).to.equal(201);
      expect(day.body.data.minutes).to.equal(1440);
      // Clocks differ: up to 5 minutes ahead is taken.
      const soon = await site.post(PATH, { game_id: game.id, started_at: fromNow(-1), ended_at: fromNow(4) });
      expect(soon.status, soon.text).to.equal(201);
      expect(soon.body.data.minutes).to.be.oneOf([4, 5]);
      const empty = await site.post(PATH, { game_id: game.id, started_at: at(0), ended_at: at(59_000) });
      expect(empty.body.data.minutes).to.equal(0);
    });

    it('refuses a game the catalog does not have with fields_invalid game_id', async () => {
      const { site } = await person();
      const res = await site.post(PATH, { game_id: 987654321, started_at: fromNow(-5) });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.include({ reason: 'fields_invalid', field: 'game_id' });
    });

    const refusals: Array<[string, Record<string, unknown>, string, string]> = [
      ['a missing game', { started_at: '2026-01-01T10:00:00Z' }, 'game_id', 'missing'],
      ['a missing start', { game_id: 1 }, 'started_at', 'missing'],
      ['a game id as text', { game_id: '1', started_at: '2026-01-01T10:00:00Z' }, 'game_id', 'wrong_type'],
      ['game id 0', { game_id: 0, started_at: '2026-01-01T10:00:00Z' }, 'game_id', 'out_of_range'],
      ['a start that is no time', { game_id: 1, started_at: 'yesterday' }, 'started_at', 'bad_format'],
      ['a time without offset', { game_id: 1, started_at: '2026-01-01T10:00:00' }, 'started_at', 'bad_format'],
      ['an end as a number', { game_id: 1, started_at: '2026-01-01T10:00:00Z', ended_at: 5 }, 'ended_at', 'wrong_type'],
      [
        'a note of 2001',
        { game_id: 1, started_at: '2026-01-01T10:00:00Z', note: 'x'.repeat(2001) },
        'note',
        'too_long',
      ],
      [
        'a control character',
        { game_id: 1, started_at: '2026-01-01T10:00:00Z', note: 'a\u0007b' },
        'note',
        'bad_format',
      ],
      [
        'an unknown visibility',
        { game_id: 1, started_at: '2026-01-01T10:00:00Z', visibility: 'SECRET' },
        'visibility',
        'not_allowed',
      ],
      ['an unknown field', { game_id: 1, started_at: '2026-01-01T10:00:00Z', minutes: 5 }, 'minutes', 'unknown_field'],
    ];
    for (const [name, body, field, reason] of refusals) {
      it(`refuses ${name}: 400 ${reason} ${field}`, async () => {
        const { site, account } = await person();
        const res = await site.post(PATH, body);
        expect(res.status).to.equal(400);
        expect(res.body.error).to.include({ code: 'invalid_request', field, reason });
        expect(await db()('play_sessions').where({ account_id: account.id })).to.have.length(0);
      });
    }

    it('takes a note of 2000 characters, counted in code points', async () => {
      const { site } = await person();
      const note = '🎮'.repeat(2000);
      const res = await site.post(PATH, { game_id: game.id, started_at: fromNow(-20), ended_at: fromNow(-10), note });
      expect(res.status).to.equal(201);
      expect(res.body.data.note).to.equal(note);
    });
  });

  describe('PATCH /journal/sessions/{id}', () => {
    it('closes a live session: minutes computed, exactly one feed item; reopening takes it off, closing puts it back', async () => {
      const { site } = await person();
      const start = fromNow(-125);
      const live = (await site.post(PATH, { game_id: game.id, started_at: start })).body.data;
      const closed = await site.patch(`${PATH}/${live.id}`, { ended_at: fromNow(-5) });
      expect(closed.status, closed.text).to.equal(200);
      expect(closed.body.data).to.include({ id: live.id, live: false, minutes: 120, started_at: start });
      expect(closed.body.data.created_at).to.equal(live.created_at);
      expect(await items(live.id)).to.have.length(1);

      // A change that keeps it closed adds nothing.
      expect((await site.patch(`${PATH}/${live.id}`, { note: 'Good run.' })).body.data.note).to.equal('Good run.');
      expect(await items(live.id)).to.have.length(1);

      const reopened = await site.patch(`${PATH}/${live.id}`, { ended_at: null });
      expect(reopened.body.data).to.include({ live: true, minutes: null, ended_at: null, note: 'Good run.' });
      expect(await items(live.id)).to.have.length(0);

      const again = await site.patch(`${PATH}/${live.id}`, { ended_at: fromNow(-2) });
      expect(again.body.data.minutes).to.equal(123);
      expect(await items(live.id)).to.have.length(1);
    });

    it('moves the feed item with the game, and refuses a game the catalog does not have', async () => {
      const { site } = await person();
      const session = (await site.post(PATH, { game_id: game.id, started_at: fromNow(-60), ended_at: fromNow(-30) }))
        .body.data;
      const moved = await site.patch(`${PATH}/${session.id}`, { game_id: other.id });
      expect(moved.body.data).to.deep.include({
        game_id: other.id,
        game: { slug: 'celeste', name: 'Celeste', cover_url: null },
      });
      expect((await items(session.id)).map((item) => item.game_id)).to.deep.equal([other.id]);
      const unknown = await site.patch(`${PATH}/${session.id}`, { game_id: 987654321 });
      expect(unknown.status).to.equal(400);
      expect(unknown.body.error).to.include({ reason: 'fields_invalid', field: 'game_id' });
    });

    it('judges every rule on the merged session, naming the field sent', async () => {
      const { site } = await person();
      const start = Date.now() - 48 * 3600_000;
      const at = (ms: number) => new Date(start + ms).toISOString();
      const session = (await site.post(PATH, { game_id: game.id, started_at: at(0), ended_at: at(3600_000) })).body
        .data;
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ ended_at: at(25 * 3600_000) }, 'ended_at'],
        [{ started_at: at(-24 * 3600_000) }, 'started_at'],
        [{ started_at: at(2 * 3600_000) }, 'started_at'],
        [{ ended_at: at(-1000) }, 'ended_at'],
        [{ ended_at: fromNow(10) }, 'ended_at'],
        [{ started_at: fromNow(10), ended_at: null }, 'started_at'],
      ];
      for (const [changes, field] of cases) {
        const res = await site.patch(`${PATH}/${session.id}`, changes);
        expect(res.status, JSON.stringify(changes)).to.equal(400);
        expect(res.body.error).to.include({ reason: 'fields_invalid', field });
      }
      const unchanged = await db()('play_sessions').where({ id: session.id }).first();
      expect(unchanged.minutes).to.equal(60);
      const both = await site.patch(`${PATH}/${session.id}`, { started_at: at(-3600_000), ended_at: at(-60_000) });
      expect(both.status).to.equal(200);
      expect(both.body.data.minutes).to.equal(59);
    });

    it('does not reopen a session while another runs: 409 with the running one’s id', async () => {
      const { site } = await person();
      const closed = (await site.post(PATH, { game_id: game.id, started_at: fromNow(-90), ended_at: fromNow(-60) }))
        .body.data;
      const live = (await site.post(PATH, { game_id: game.id, started_at: fromNow(-30) })).body.data;
      const res = await site.patch(`${PATH}/${closed.id}`, { ended_at: null });
      expect(res.status).to.equal(409);
      expect(res.body.error).to.include({ reason: 'session_running', id: live.id });
      // The running one itself may be changed and stay live.
      const kept = await site.patch(`${PATH}/${live.id}`, { ended_at: null, note: 'still going' });
      expect(kept.status).to.equal(200);
      expect(kept.body.data).to.include({ live: true, note: 'still going' });
    });

    it('changes nothing with an empty body, and refuses what the schema sees', async () => {
      const { site } = await person();
      const session = (await site.post(PATH, { game_id: game.id, started_at: fromNow(-90), ended_at: fromNow(-60) }))
        .body.data;
      const same = await site.patch(`${PATH}/${session.id}`, {});
      expect(same.status).to.equal(200);
      expect(same.body.data).to.deep.equal(session);
      for (const [body, field, reason] of [
        [{ note: 'x'.repeat(2001) }, 'note', 'too_long'],
        [{ visibility: 'HIDDEN' }, 'visibility', 'not_allowed'],
        [{ live: false }, 'live', 'unknown_field'],
        [{ started_at: null }, 'started_at', 'wrong_type'],
        [{ game_id: null }, 'game_id', 'wrong_type'],
      ] as const) {
        const res = await site.patch(`${PATH}/${session.id}`, body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error).to.include({ field, reason });
      }
    });

    it('refuses a session moderation removed with 403 removed; its author still sees and deletes it', async () => {
      const { site } = await person();
      const session = (await site.post(PATH, { game_id: game.id, started_at: fromNow(-90), ended_at: fromNow(-60) }))
        .body.data;
      await db()('play_sessions').where({ id: session.id }).update({ removed_at: new Date() });
      const res = await site.patch(`${PATH}/${session.id}`, { note: 'edited' });
      expect(res.status).to.equal(403);
      expect(res.body.error).to.include({ code: 'forbidden', reason: 'removed' });
      const listed = await site.get(PATH);
      expect(listed.body.data.map((s: { id: string; removed: boolean }) => [s.id, s.removed])).to.deep.equal([
        [session.id, true],
      ]);
      expect((await site.delete(`${PATH}/${session.id}`)).status).to.equal(200);
    });

    it('answers 404 session_not_found for another account’s, an unknown, or a malformed id', async () => {
      const owner = await person();
      const stranger = await person();
      const session = (await owner.site.post(PATH, { game_id: game.id, started_at: fromNow(-9) })).body.data;
      for (const id of [session.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
        const patched = await stranger.site.patch(`${PATH}/${id}`, { ended_at: fromNow(0) });
        expect(patched.status, id).to.equal(404);
        expect(patched.body.error).to.include({ code: 'not_found', reason: 'session_not_found' });
        const deleted = await stranger.site.delete(`${PATH}/${id}`);
        expect(deleted.status, id).to.equal(404);
        expect(deleted.body.error).to.include({ code: 'not_found', reason: 'session_not_found' });
      }
      expect((await db()('play_sessions').where({ id: session.id }).first()).ended_at).to.equal(null);
    });
  });

  describe('who may call', () => {
    it('needs a caller; keys need journal.read to read and journal.write to write', async () => {
      const { account, site } = await person();
      const anonymous = new SiteClient(app.client);
      for (const res of [
        await anonymous.get(PATH),
        await anonymous.post(PATH, { game_id: game.id, started_at: fromNow(-5) }),
        await anonymous.patch(`${PATH}/00000000-0000-4000-8000-000000000000`, {}),
        await anonymous.delete(`${PATH}/00000000-0000-4000-8000-000000000000`),
      ]) {
        expect(res.status).to.equal(401);
        expect(res.body.error).to.include({ code: 'unauthorized' });
      }

      const reader = await appWithKey(account.id, ['journal.read']);
      const writer = await appWithKey(account.id, ['journal.write']);
      const refused = await app.client.post(PATH, { game_id: game.id, started_at: fromNow(-5) }, bearer(reader.token));
      expect(refused.status).to.equal(403);
      expect(refused.body.error).to.include({ code: 'insufficient_scope', scope: 'journal.write' });

      const created = await app.client.post(PATH, { game_id: game.id, started_at: fromNow(-5) }, bearer(writer.token));
      expect(created.status).to.equal(201);
      expect(created.headers.get('x-ratelimit-resource')).to.equal('write');
      const id = created.body.data.id;
      for (const res of [
        await app.client.patch(`${PATH}/${id}`, { note: 'no' }, bearer(reader.token)),
        await app.client.delete(`${PATH}/${id}`, bearer(reader.token)),
      ]) {
        expect(res.status).to.equal(403);
        expect(res.body.error).to.include({ code: 'insufficient_scope', scope: 'journal.write' });
      }
      const noRead = await app.client.get(PATH, bearer(writer.token));
      expect(noRead.status).to.equal(403);
      expect(noRead.body.error).to.include({ code: 'insufficient_scope', scope: 'journal.read' });

      const listed = await app.client.get(PATH, bearer(reader.token));
      expect(listed.status).to.equal(200);
      expect(listed.headers.get('x-ratelimit-resource')).to.equal('read');
      expect(listed.body.data.map((s: { id: string }) => s.id)).to.deep.equal([id]);

      const closed = await app.client.patch(`${PATH}/${id}`, { ended_at: fromNow(0) }, bearer(writer.token));
      expect(closed.status).to.equal(200);
      expect(closed.body.data.minutes).to.equal(5);
      const deleted = await app.client.delete(`${PATH}/${id}`, bearer(writer.token));
      expect(deleted.body).to.deep.equal({ data: { id, deleted: true } });
      expect((await site.get(PATH)).body.data).to.deep.equal([]);
    });
  });
});
