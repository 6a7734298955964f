// The activity feed: what each reader sees across authors, the filters, paging, a person's reviews and a
// game's activity with its session totals.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import {
  block,
  catalogGame,
  follow,
  libraryEntry,
  namedPerson,
  playSession,
  review,
  screenshot,
} from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

async function activity(accountId: string, kind: string, subjectId: string, gameId: number, minute: number) {
  await db()('activity_items').insert({
    account_id: accountId,
    kind,
    subject_id: subjectId,
    game_id: gameId,
    created_at: new Date(Date.UTC(2026, 0, 1, 12, minute)),
  });
}

describe('activity', () => {
  useCleanDatabase();
  const app = useTestApp();
  const kinds = (res: { body: { data: Array<{ kind: string; username: string }> } }) =>
    res.body.data.map((item) => `${item.username}:${item.kind}`);
  let game: { id: number; slug: string };
  let readerSite: SiteClient;
  let biaSite: SiteClient;

  before(async () => {
    game = await catalogGame({ name: 'Hollow Knight', slug: 'hollow-knight' });
    const ana = await namedPerson(app.client, 'act_ana');
    const bia = await namedPerson(app.client, 'act_bia', 'PRIVATE');
    const reader = await namedPerson(app.client, 'act_reader');
    readerSite = reader.site;
    biaSite = bia.site;
    await follow(reader.account.id, ana.account.id);
    const open = await review(ana.account.id, { game_id: game.id, body: 'Lovely bugs', rating: 90 });
    const secret = await review(ana.account.id, {
      game_id: game.id,
      body: 'Followers only',
      visibility: 'FOLLOWERS',
      contains_spoilers: true,
    });
    const session = await playSession(ana.account.id, {
      game_id: game.id,
      started_at: new Date('2026-01-01T10:00Z'),
      ended_at: new Date('2026-01-01T11:00Z'),
      minutes: 60,
    });
    await playSession(ana.account.id, {
      game_id: game.id,
      started_at: new Date('2026-01-01T20:00Z'),
      ended_at: new Date('2026-01-01T20:30Z'),
      minutes: 30,
    });
    await playSession(ana.account.id, { game_id: game.id, ended_at: null });
    const shot = await screenshot(ana.account.id, {
      game_id: game.id,
      thumbnail_key: 'screenshots/t.webp',
      thumbnail_width: 640,
      thumbnail_height: 360,
    });
    const entry = await libraryEntry(bia.account.id, { game_id: game.id, status: 'PLAYING' });
    await activity(ana.account.id, 'review', open.id as string, game.id, 1);
    await activity(ana.account.id, 'review', secret.id as string, game.id, 2);
    await activity(ana.account.id, 'session', session.id as string, game.id, 3);
    await activity(ana.account.id, 'screenshot', shot.id as string, game.id, 4);
    await activity(bia.account.id, 'entry', entry.id as string, game.id, 5);
  });

  it('shows each reader what they may see, newest first, across authors', async () => {
    expect(kinds(await new SiteClient(app.client).get('/api/v1/activity'))).to.deep.equal([
      'act_ana:screenshot',
      'act_ana:session',
      'act_ana:review',
    ]);
    // Ana's follower also sees her followers-only review; bia's private library stays hidden from all.
    expect(kinds(await readerSite.get('/api/v1/activity'))).to.deep.equal([
      'act_ana:screenshot',
      'act_ana:session',
      'act_ana:review',
      'act_ana:review',
    ]);
    expect(kinds(await biaSite.get('/api/v1/activity?profile=act_bia'))).to.deep.equal(['act_bia:entry']);
  });

  it('filters by profile, kinds, rating, spoilers, text and order, and pages with before', async () => {
    const visitor = new SiteClient(app.client);
    const cases: Array<[string, string[]]> = [
      ['profile=act_ana&kinds=review', ['act_ana:review']],
      ['kinds=session,screenshot', ['act_ana:screenshot', 'act_ana:session']],
      ['rating=80', ['act_ana:review']],
      ['spoilers=safe&kinds=review', ['act_ana:review']],
      ['q=bugs', ['act_ana:review']],
      ['order=old', ['act_ana:review', 'act_ana:session', 'act_ana:screenshot']],
      ['game=hollow-knight&kinds=screenshot', ['act_ana:screenshot']],
      ['game=no-such-game', []],
    ];
    for (const [query, expected] of cases) {
      const res = await visitor.get(`/api/v1/activity?${query}`);
      expect(res.status, `${query} ${res.text}`).to.equal(200);
      expect(kinds(res), query).to.deep.equal(expected);
    }
    const first = await visitor.get('/api/v1/activity?limit=2');
    expect(first.body.has_more).to.equal(true);
    const rest = await visitor.get(`/api/v1/activity?limit=2&before=${encodeURIComponent(first.body.next_before)}`);
    expect(kinds(rest)).to.deep.equal(['act_ana:review']);
    const capture = (await visitor.get('/api/v1/activity?kinds=screenshot')).body.data[0];
    expect(capture).to.include({ thumbnailWidth: 640, thumbnailHeight: 360 });
    expect(capture.thumbnailUrl).to.match(/\/media\/screenshots\/t\.webp$/);
    expect(capture.imageUrl).to.match(/\/media\/screenshots\//);
  });

  it('refuses offset without exactly one kind, and every bad parameter naming it', async () => {
    const offset = await app.client.get('/api/v1/activity?offset=1');
    expect(offset.status).to.equal(400);
    expect(offset.body.error.field).to.equal('offset');
    expect((await app.client.get('/api/v1/activity?offset=1&kinds=review')).status).to.equal(200);
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=181', 'limit'],
      ['kinds=comment', 'kinds'],
      ['rating=101', 'rating'],
      ['spoilers=maybe', 'spoilers'],
      ['order=random', 'order'],
      ['before=soon', 'before'],
    ]) {
      const res = await app.client.get(`/api/v1/activity?${query}`);
      expect(res.status, query).to.equal(400);
      expect(res.body.error.field, query).to.equal(field);
    }
    expect((await app.client.get('/api/v1/activity?profile=nobody_at_all')).status).to.equal(404);
    // A name no one could hold is 404 without asking; a bad parameter is refused before the name is looked up.
    expect((await app.client.get('/api/v1/activity?profile=not--a--name')).status).to.equal(404);
    const first = await app.client.get('/api/v1/activity?profile=nobody_at_all&offset=1');
    expect(first.status).to.equal(400);
    expect(first.body.error.field).to.equal('offset');
  });

  it('answers a person’s reviews and sessions, and hides an author across a block', async () => {
    const visitor = new SiteClient(app.client);
    expect(kinds(await visitor.get('/api/v1/profiles/act_ana/reviews'))).to.deep.equal([
      'act_ana:session',
      'act_ana:review',
    ]);
    const blocked = await namedPerson(app.client, 'act_blocked');
    const ana = await db()('accounts').where({ username: 'act_ana' }).first('id');
    await block(ana.id, blocked.account.id);
    expect(kinds(await blocked.site.get('/api/v1/activity'))).to.deep.equal([]);
    expect((await blocked.site.get('/api/v1/profiles/act_ana/reviews')).status).to.equal(404);
    // Asking only for kinds that never live here is an empty page, but still not for someone hidden or absent.
    const none = await visitor.get('/api/v1/profiles/act_ana/reviews?kinds=entry');
    expect(none.status).to.equal(200);
    expect(none.body).to.deep.equal({ data: [], has_more: false, next_before: null });
    expect((await blocked.site.get('/api/v1/profiles/act_ana/reviews?kinds=entry')).status).to.equal(404);
    expect((await visitor.get('/api/v1/profiles/nobody_at_all/reviews?kinds=entry')).status).to.equal(404);
    expect((await visitor.get('/api/v1/profiles/nobody_at_all/reviews')).status).to.equal(404);
  });

  it('answers a game’s activity with totals of closed sessions and distinct days', async () => {
    const res = await new SiteClient(app.client).get('/api/v1/games/hollow-knight/activity');
    expect(res.status).to.equal(200);
    expect(res.body.totals).to.deep.equal({ sessions: 2, minutes: 90, days: 1 });
    expect(kinds(res)).to.have.length(3);
    expect((await app.client.get('/api/v1/games/no-such-game/activity')).status).to.equal(404);
  });
});
