// The owner's journeys (DECISIONS: Journal), read: a run holds its game's sessions between its times and
// shows its likes, comments and awards; GET /journal/journeys pages them newest first.
import { expect } from 'chai';
import { AUTHOR_SEES, loadJourneyTotals } from '../../shared/journal/journey-reads.js';
import { visibleItems } from '../../shared/people/item-visibility.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import * as people from '../helpers/people.js';
import { fromNow, journeyGames } from '../helpers/journal.js';
import { useTestApp } from '../helpers/test-app.js';

const PATH = '/api/v1/journal/journeys';
const HOUR = 3600_000;

describe('the journal’s journeys: what they hold and how they list', () => {
  useCleanDatabase();
  const app = useTestApp();
  let game: { id: number; name: string; slug: string };
  let other: { id: number; name: string; slug: string };
  let n = 0;
  const person = () => people.namedPerson(app.client, `runner_${(n += 1)}`);

  before(async () => {
    ({ game, other } = await journeyGames());
  });

  describe('what a journey holds', () => {
    it('counts its game’s sessions started between its times, and their closed minutes', async () => {
      const owner = await person();
      const stranger = await person();
      const base = Date.now() - 100 * HOUR;
      const at = (hours: number) => new Date(base + hours * HOUR);
      const session = (accountId: string, fields: Record<string, unknown>) =>
        people.playSession(accountId, {
          game_id: game.id,
          started_at: at(10),
          ended_at: at(11),
          minutes: 60,
          ...fields,
        });
      await session(owner.account.id, { started_at: at(10), ended_at: at(10.5), minutes: 30 });
      // Its start and finish count in.
      await session(owner.account.id, { started_at: at(5), ended_at: at(7), minutes: 120 });
      await session(owner.account.id, { started_at: at(20), ended_at: at(21), minutes: 60, visibility: 'PRIVATE' });
      // Outside its times, another game, another account: not held.
      await session(owner.account.id, { started_at: at(4.99), ended_at: at(6), minutes: 61 });
      await session(owner.account.id, { started_at: at(20.01), ended_at: at(21), minutes: 59 });
      await session(owner.account.id, { game_id: other.id, minutes: 45 });
      await session(stranger.account.id, { minutes: 15 });

      const closed = await owner.site.post(PATH, {
        game_id: game.id,
        title: 'closed run',
        started_at: at(5).toISOString(),
        finished_at: at(20).toISOString(),
      });
      expect(closed.body.data).to.include({ sessions: 3, minutes: 210 });

      // Open ended: everything from its start on, a running session counted without minutes.
      await session(owner.account.id, { started_at: at(90), ended_at: null, minutes: null });
      const open = await owner.site.post(PATH, {
        game_id: game.id,
        title: 'open run',
        started_at: at(5).toISOString(),
      });
      expect(open.body.data).to.include({ sessions: 5, minutes: 269 });

      // A session removed by moderation counts for its author only; readers count what they may see.
      await db()('play_sessions')
        .where({ account_id: owner.account.id, minutes: 30 })
        .update({ removed_at: new Date() });
      const ids = [closed.body.data.id, open.body.data.id];
      const own = await loadJourneyTotals(db(), ids, AUTHOR_SEES);
      expect(own.get(closed.body.data.id)).to.include({ sessions: 3, minutes: 210 });
      const stranger_ = await loadJourneyTotals(db(), ids, { ...visibleItems('p', 'other'), author: false });
      expect(stranger_.get(closed.body.data.id)).to.include({ sessions: 1, minutes: 120 });
      expect(stranger_.get(open.body.data.id)).to.include({ sessions: 3, minutes: 179 });

      const listed = await owner.site.get(PATH);
      expect(listed.body.data.map((j: { title: string; sessions: number }) => [j.title, j.sessions])).to.deep.equal([
        ['open run', 5],
        ['closed run', 3],
      ]);
    });

    it('shows its likes, awards and the comments on it that were not removed', async () => {
      const owner = await person();
      const reader = await person();
      const journey = (await owner.site.post(PATH, { game_id: game.id, title: 'liked', started_at: fromNow(-60) })).body
        .data;
      await db()('journeys')
        .where({ id: journey.id })
        .update({ likes: 3, awards: JSON.stringify({ gg: 2, wow: 1 }) });
      for (const removed of [null, null, new Date()]) {
        await people.comment(reader.account.id, owner.account.id, {
          target_kind: 'JOURNEY',
          target_id: journey.id,
          body: 'gg',
          removed_at: removed,
        });
      }
      const res = await owner.site.patch(`${PATH}/${journey.id}`, {});
      expect(res.body.data).to.deep.include({ likes: 3, comments: 2, awards: { gg: 2, wow: 1 } });
    });
  });

  describe('GET /journal/journeys', () => {
    it('lists the owner’s journeys newest first by numbered pages, with the page bounds', async () => {
      const { site, account } = await person();
      const stranger = await person();
      for (let i = 0; i < 5; i += 1) {
        await people.journey(account.id, {
          game_id: game.id,
          title: `run ${i}`,
          started_at: new Date(Date.UTC(2026, 0, 1)),
          created_at: new Date(Date.UTC(2026, 0, 1, i)),
          visibility: i === 4 ? 'PRIVATE' : 'PUBLIC',
        });
      }
      await people.journey(stranger.account.id, { game_id: game.id, title: 'theirs' });
      const first = await site.get(`${PATH}?limit=2`);
      expect(first.body.data.map((j: { title: string }) => j.title)).to.deep.equal(['run 4', 'run 3']);
      expect(first.body.page).to.deep.equal({ number: 1, size: 2, total_items: 5, total_pages: 3, has_more: true });
      const last = await site.get(`${PATH}?limit=2&page=3`);
      expect(last.body.data.map((j: { title: string }) => j.title)).to.deep.equal(['run 0']);
      expect(last.body.page.has_more).to.equal(false);
      const all = await site.get(PATH);
      expect(all.body.page.size).to.equal(24);
      expect(all.body.data).to.have.length(5);
      for (const [query, field, reason] of [
        ['page=0', 'page', 'out_of_range'],
        ['page=201', 'page', 'out_of_range'],
        ['limit=0', 'limit', 'out_of_range'],
        ['limit=49', 'limit', 'out_of_range'],
        ['limit=x', 'limit', 'wrong_type'],
      ]) {
        const res = await site.get(`${PATH}?${query}`);
        expect(res.status, query).to.equal(400);
        expect(res.body.error).to.include({ code: 'invalid_request', field, reason });
      }
    });

    it('shows a journey of a game the catalog lost with game null', async () => {
      const { site, account } = await person();
      await people.journey(account.id, { game_id: 987654, title: 'lost', started_at: new Date() });
      const res = await site.get(PATH);
      expect(res.body.data[0]).to.include({ game_id: 987654, game: null, title: 'lost' });
    });
  });
});
