// The owner's journeys (DECISIONS: Journal), written: creating one (a feed item from its creation), the
// judging of its times, the cap of 1,000 per account under parallel creation, changes, deletion and who may
// call. What a run holds and how the journeys list: journal-journey-contents.test.ts.
import { expect } from 'chai';
import { JOURNEYS_PER_ACCOUNT } from '../../shared/journal/rows.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import * as people from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { bearer, feedItemsOf, fromNow, journeyGames } from '../helpers/journal.js';
import { useTestApp } from '../helpers/test-app.js';

const PATH = '/api/v1/journal/journeys';
const HOUR = 3600_000;
const items = (subjectId: string) => feedItemsOf('journey', subjectId);

describe('the journal’s journeys', () => {
  useCleanDatabase();
  const app = useTestApp();
  let game: { id: number; name: string; slug: string };
  let other: { id: number; name: string; slug: string };
  let n = 0;
  const person = () => people.namedPerson(app.client, `runner_${(n += 1)}`);

  before(async () => {
    ({ game, other } = await journeyGames());
  });

  describe('POST /journal/journeys', () => {
    it('starts a journey: its game shaped like /games, empty totals, and one feed item', async () => {
      const { site, account } = await person();
      const started = fromNow(-600);
      const res = await site.post(PATH, { game_id: game.id, title: 'Steel Soul', started_at: started });
      expect(res.status, res.text).to.equal(201);
      const journey = res.body.data;
      expect(journey).to.have.keys([
        'id',
        'game_id',
        'game',
        'title',
        'started_at',
        'finished_at',
        'visibility',
        'sessions',
        'minutes',
        'likes',
        'comments',
        'awards',
        'removed',
        'created_at',
        'updated_at',
      ]);
      expect(journey).to.deep.include({
        game_id: game.id,
        title: 'Steel Soul',
        started_at: started,
        finished_at: null,
        visibility: 'PUBLIC',
        sessions: 0,
        minutes: 0,
        likes: 0,
        comments: 0,
        awards: {},
        removed: false,
      });
      const catalog = await app.client.get('/api/v1/games?q=hollow');
      expect(journey.game).to.deep.equal(catalog.body.data[0]);
      expect(journey.game).to.include({ id: game.id, rating: 90.4 });
      const feed = await items(journey.id);
      expect(feed).to.have.length(1);
      expect(feed[0]).to.include({ account_id: account.id, game_id: game.id });
    });

    it('refuses future times and a finish before the start, naming the field', async () => {
      const { site, account } = await person();
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ started_at: fromNow(6) }, 'started_at'],
        [{ started_at: fromNow(-60), finished_at: fromNow(6) }, 'finished_at'],
        [{ started_at: fromNow(-60), finished_at: fromNow(-61) }, 'finished_at'],
      ];
      for (const [times, field] of cases) {
        const res = await site.post(PATH, { game_id: game.id, title: 'Run', ...times });
        expect(res.status, JSON.stringify(times)).to.equal(400);
        expect(res.body.error).to.include({ code: 'invalid_request', reason: 'fields_invalid', field });
      }
      const unknown = await site.post(PATH, { game_id: 987654321, title: 'Run', started_at: fromNow(-5) });
      expect(unknown.body.error).to.include({ reason: 'fields_invalid', field: 'game_id' });
      expect(await db()('journeys').where({ account_id: account.id })).to.have.length(0);
      const ok = await site.post(PATH, {
        game_id: game.id,
        title: 'x'.repeat(100),
        started_at: fromNow(-60),
        finished_at: fromNow(4),
        visibility: 'PRIVATE',
      });
      expect(ok.status, ok.text).to.equal(201);
    });

    const start = '2026-01-01T10:00:00Z';
    const refusals: Array<[string, Record<string, unknown>, string, string]> = [
      ['a missing game', { title: 'Run', started_at: start }, 'game_id', 'missing'],
      ['a missing title', { game_id: 1, started_at: start }, 'title', 'missing'],
      ['a missing start', { game_id: 1, title: 'Run' }, 'started_at', 'missing'],
      ['an empty title', { game_id: 1, title: '', started_at: start }, 'title', 'too_short'],
      ['a title of 101', { game_id: 1, title: 'x'.repeat(101), started_at: start }, 'title', 'too_long'],
      ['a control character', { game_id: 1, title: 'a\u001bb', started_at: start }, 'title', 'bad_format'],
      ['a title as a number', { game_id: 1, title: 7, started_at: start }, 'title', 'wrong_type'],
      [
        'a bad finish',
        { game_id: 1, title: 'Run', started_at: start, finished_at: 'soon' },
        'finished_at',
        'bad_format',
      ],
      [
        'an unknown visibility',
        { game_id: 1, title: 'Run', started_at: start, visibility: 'public' },
        'visibility',
        'not_allowed',
      ],
      ['an unknown field', { game_id: 1, title: 'Run', started_at: start, likes: 3 }, 'likes', 'unknown_field'],
      ['a game id too big', { game_id: 2 ** 31, title: 'Run', started_at: start }, 'game_id', 'out_of_range'],
    ];
    for (const [name, body, field, reason] of refusals) {
      it(`refuses ${name}: 400 ${reason} ${field}`, async () => {
        const { site } = await person();
        const res = await site.post(PATH, body);
        expect(res.status).to.equal(400);
        expect(res.body.error).to.include({ code: 'invalid_request', field, reason });
      });
    }

    it('holds 1,000 journeys an account: of 5 sent at once past 998, exactly 2 are created', async () => {
      const { site, account } = await person();
      const rows = Array.from({ length: JOURNEYS_PER_ACCOUNT - 2 }, (_, i) => ({
        account_id: account.id,
        game_id: game.id,
        title: `run ${i}`,
        started_at: new Date(Date.now() - HOUR),
      }));
      await db().batchInsert('journeys', rows, 500);
      const answers = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          site.post(PATH, { game_id: game.id, title: `parallel ${i}`, started_at: fromNow(-30) }),
        ),
      );
      expect(answers.map((res) => res.status).sort()).to.deep.equal([201, 201, 409, 409, 409]);
      for (const res of answers.filter((each) => each.status === 409)) {
        expect(res.body.error).to.include({ code: 'conflict', reason: 'journeys_full', limit: 1000, count: 1000 });
      }
      expect(await db()('journeys').where({ account_id: account.id })).to.have.length(1000);
      // A deletion frees a place.
      const [first] = answers.filter((res) => res.status === 201);
      expect((await site.delete(`${PATH}/${first.body.data.id}`)).status).to.equal(200);
      expect((await site.post(PATH, { game_id: game.id, title: 'again', started_at: fromNow(-1) })).status).to.equal(
        201,
      );
    });
  });

  describe('PATCH /journal/journeys/{id}', () => {
    it('changes only the fields sent, moves its feed item with the game, and judges the merged times', async () => {
      const { site } = await person();
      const journey = (
        await site.post(PATH, {
          game_id: game.id,
          title: 'first',
          started_at: fromNow(-600),
          finished_at: fromNow(-300),
        })
      ).body.data;
      const res = await site.patch(`${PATH}/${journey.id}`, { title: 'renamed', visibility: 'FOLLOWERS' });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({
        title: 'renamed',
        visibility: 'FOLLOWERS',
        started_at: journey.started_at,
        finished_at: journey.finished_at,
        created_at: journey.created_at,
      });
      const moved = await site.patch(`${PATH}/${journey.id}`, { game_id: other.id });
      expect(moved.body.data.game).to.include({ id: other.id, slug: 'celeste' });
      expect((await items(journey.id)).map((item) => item.game_id)).to.deep.equal([other.id]);

      for (const [changes, field] of [
        [{ started_at: fromNow(-200) }, 'started_at'],
        [{ finished_at: fromNow(-700) }, 'finished_at'],
        [{ finished_at: fromNow(10) }, 'finished_at'],
        [{ started_at: fromNow(10), finished_at: null }, 'started_at'],
        [{ game_id: 987654321 }, 'game_id'],
      ] as const) {
        const refused = await site.patch(`${PATH}/${journey.id}`, changes);
        expect(refused.status, JSON.stringify(changes)).to.equal(400);
        expect(refused.body.error).to.include({ reason: 'fields_invalid', field });
      }
      for (const [body, field, reason] of [
        [{ title: '' }, 'title', 'too_short'],
        [{ title: null }, 'title', 'wrong_type'],
        [{ sessions: 2 }, 'sessions', 'unknown_field'],
      ] as const) {
        const refused = await site.patch(`${PATH}/${journey.id}`, body);
        expect(refused.body.error).to.include({ field, reason });
      }
      const reopened = await site.patch(`${PATH}/${journey.id}`, { finished_at: null });
      expect(reopened.body.data.finished_at).to.equal(null);
    });

    it('refuses a journey moderation removed with 403 removed; its author still lists and deletes it', async () => {
      const { site } = await person();
      const journey = (await site.post(PATH, { game_id: game.id, title: 'gone', started_at: fromNow(-60) })).body.data;
      await db()('journeys').where({ id: journey.id }).update({ removed_at: new Date() });
      const res = await site.patch(`${PATH}/${journey.id}`, { title: 'back' });
      expect(res.status).to.equal(403);
      expect(res.body.error).to.include({ code: 'forbidden', reason: 'removed' });
      const listed = await site.get(PATH);
      expect(listed.body.data.map((j: { id: string; removed: boolean }) => [j.id, j.removed])).to.deep.equal([
        [journey.id, true],
      ]);
      expect((await site.delete(`${PATH}/${journey.id}`)).status).to.equal(200);
    });

    it('answers 404 journey_not_found for another account’s, an unknown, or a malformed id', async () => {
      const owner = await person();
      const stranger = await person();
      const journey = (await owner.site.post(PATH, { game_id: game.id, title: 'mine', started_at: fromNow(-9) })).body
        .data;
      for (const id of [journey.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
        const patched = await stranger.site.patch(`${PATH}/${id}`, { title: 'theirs' });
        expect(patched.status, id).to.equal(404);
        expect(patched.body.error).to.include({ code: 'not_found', reason: 'journey_not_found' });
        const deleted = await stranger.site.delete(`${PATH}/${id}`);
        expect(deleted.status, id).to.equal(404);
        expect(deleted.body.error).to.include({ code: 'not_found', reason: 'journey_not_found' });
      }
      expect((await db()('journeys').where({ id: journey.id }).first()).title).to.equal('mine');
      expect((await stranger.site.get(PATH)).body.data).to.deep.equal([]);
    });
  });

  describe('DELETE /journal/journeys/{id}', () => {
    it('deletes the journey with its feed item and the comments on it; its sessions stay', async () => {
      const { site, account } = await person();
      const reader = await person();
      const held = await people.playSession(account.id, { game_id: game.id, started_at: new Date(Date.now() - HOUR) });
      const journey = (await site.post(PATH, { game_id: game.id, title: 'short', started_at: fromNow(-120) })).body
        .data;
      expect(journey.sessions).to.equal(1);
      await people.comment(reader.account.id, account.id, {
        target_kind: 'JOURNEY',
        target_id: journey.id,
        body: 'gg',
      });
      const res = await site.delete(`${PATH}/${journey.id}`);
      expect(res.body).to.deep.equal({ data: { id: journey.id, deleted: true } });
      expect(await items(journey.id)).to.have.length(0);
      expect(await db()('comments').where({ target_id: journey.id })).to.have.length(0);
      expect(await db()('play_sessions').where({ id: held.id })).to.have.length(1);
      expect((await site.delete(`${PATH}/${journey.id}`)).status).to.equal(404);
    });
  });

  describe('who may call', () => {
    it('needs a caller; keys need journal.read to read and journal.write to write', async () => {
      const { account } = await person();
      const anonymous = new SiteClient(app.client);
      const id = '00000000-0000-4000-8000-000000000000';
      for (const res of [
        await anonymous.get(PATH),
        await anonymous.post(PATH, { game_id: game.id, title: 'Run', started_at: fromNow(-5) }),
        await anonymous.patch(`${PATH}/${id}`, {}),
        await anonymous.delete(`${PATH}/${id}`),
      ]) {
        expect(res.status).to.equal(401);
        expect(res.body.error).to.include({ code: 'unauthorized' });
      }
      const reader = await appWithKey(account.id, ['journal.read']);
      const writer = await appWithKey(account.id, ['journal.write']);
      const body = { game_id: game.id, title: 'Keyed', started_at: fromNow(-5) };
      const refused = await app.client.post(PATH, body, bearer(reader.token));
      expect(refused.status).to.equal(403);
      expect(refused.body.error).to.include({ code: 'insufficient_scope', scope: 'journal.write' });
      const created = await app.client.post(PATH, body, bearer(writer.token));
      expect(created.status).to.equal(201);
      expect(created.headers.get('x-ratelimit-resource')).to.equal('write');
      const journey = created.body.data.id;
      for (const res of [
        await app.client.patch(`${PATH}/${journey}`, { title: 'no' }, bearer(reader.token)),
        await app.client.delete(`${PATH}/${journey}`, bearer(reader.token)),
      ]) {
        expect(res.status).to.equal(403);
        expect(res.body.error).to.include({ code: 'insufficient_scope', scope: 'journal.write' });
      }
      const noRead = await app.client.get(PATH, bearer(writer.token));
      expect(noRead.body.error).to.include({ code: 'insufficient_scope', scope: 'journal.read' });
      const listed = await app.client.get(PATH, bearer(reader.token));
      expect(listed.headers.get('x-ratelimit-resource')).to.equal('read');
      expect(listed.body.data.map((j: { id: string }) => j.id)).to.deep.equal([journey]);
      expect(
        (await app.client.patch(`${PATH}/${journey}`, { title: 'Yes' }, bearer(writer.token))).body.data.title,
      ).to.equal('Yes');
      expect((await app.client.delete(`${PATH}/${journey}`, bearer(writer.token))).status).to.equal(200);
    });
  });
});
