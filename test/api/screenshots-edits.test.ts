// PATCH and DELETE /screenshots/{id}: the author's edits and deletes, their refusals, another account's
// capture (404), a capture moderation removed (403 removed, still deletable), and the gallery, summary and
// feed kept true through uploads, edits and deletes, read back through the API.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { uploadCapture } from '../helpers/captures.js';
import type { TestResponse } from '../helpers/http-client.js';
import { testMedia, useImageWorker } from '../helpers/image-worker.js';
import { staffMember } from '../helpers/moderation.js';
import { catalogGame, comment, namedPerson } from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

describe('PATCH and DELETE /screenshots/{id}', function () {
  this.timeout(60000);
  useCleanDatabase();
  const media = testMedia();
  const app = useTestApp({ media });
  useImageWorker(() => media);

  const refusal = (res: TestResponse, field: string, reason: string, label: string) => {
    expect(res.status, `${label}: ${res.text}`).to.equal(400);
    expect(res.body.error, label).to.include({ code: 'invalid_request', field, reason });
  };
  const rowOf = (publicId: string) => db()('screenshots').where({ public_id: publicId }).first();

  it('changes only the fields sent, moves the feed item with the game, and answers an empty body with the capture', async () => {
    const author = await namedPerson(app.client, 'edit_author');
    const [first, second] = [await catalogGame(), await catalogGame()];
    const up = await uploadCapture(author.site, { game_id: String(first.id), description: 'Before' });
    const id = up.body.data.id as string;
    const row = await rowOf(id);
    await db()('screenshots')
      .where({ id: row.id })
      .update({ updated_at: db().raw("now() - interval '1 hour'") });

    const res = await author.site.patch(`/api/v1/screenshots/${id}`, {
      description: 'After\nwith a line',
      contains_spoilers: true,
    });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data).to.deep.include({
      id,
      game_id: first.id,
      description: 'After\nwith a line',
      contains_spoilers: true,
      visibility: 'PUBLIC',
      image_url: up.body.data.image_url,
      created_at: up.body.data.created_at,
    });
    expect(Date.parse(res.body.data.updated_at)).to.be.greaterThan(Date.parse(up.body.data.created_at));

    const moved = await author.site.patch(`/api/v1/screenshots/${id}`, { game_id: second.id, visibility: 'PRIVATE' });
    expect(moved.body.data).to.include({
      game_id: second.id,
      visibility: 'PRIVATE',
      description: 'After\nwith a line',
    });
    const item = await db()('activity_items').where({ kind: 'screenshot', subject_id: row.id }).first();
    expect(item).to.include({ game_id: second.id, visibility: 'PRIVATE' });

    const same = await author.site.patch(`/api/v1/screenshots/${id}`, {});
    expect(same.status).to.equal(200);
    expect(same.body.data).to.deep.equal(moved.body.data);
  });

  it('refuses what the schema sees with validation’s reasons and an unknown game with fields_invalid', async () => {
    const author = await namedPerson(app.client, 'edit_refused');
    const game = await catalogGame();
    const up = await uploadCapture(author.site, { game_id: String(game.id), description: 'Kept' });
    const path = `/api/v1/screenshots/${up.body.data.id}`;
    const cases: Array<[unknown, string, string]> = [
      [{ description: 'x'.repeat(501) }, 'description', 'too_long'],
      [{ description: 'esc \u001b' }, 'description', 'bad_format'],
      [{ description: null }, 'description', 'wrong_type'],
      [{ game_id: '1' }, 'game_id', 'wrong_type'],
      [{ game_id: null }, 'game_id', 'wrong_type'],
      [{ game_id: 0 }, 'game_id', 'out_of_range'],
      [{ contains_spoilers: 'true' }, 'contains_spoilers', 'wrong_type'],
      [{ visibility: 'FRIENDS' }, 'visibility', 'not_allowed'],
      [{ image: 'x' }, 'image', 'unknown_field'],
      [{ sensitive: false }, 'sensitive', 'unknown_field'],
      [{ game_id: 987_654_321 }, 'game_id', 'fields_invalid'],
    ];
    for (const [body, field, reason] of cases) {
      refusal(await author.site.patch(path, body), field, reason, JSON.stringify(body).slice(0, 50));
    }
    expect(await rowOf(up.body.data.id)).to.include({ description: 'Kept', game_id: game.id });
  });

  it('answers 404 for another account’s capture and for none, changing and deleting nothing', async () => {
    const owner = await namedPerson(app.client, 'edit_owner');
    const other = await namedPerson(app.client, 'edit_other');
    const game = await catalogGame();
    const up = await uploadCapture(owner.site, { game_id: String(game.id) });
    const id = up.body.data.id as string;
    for (const path of [`/api/v1/screenshots/${id}`, '/api/v1/screenshots/nobodys-capture']) {
      for (const res of [await other.site.patch(path, { description: 'Mine now' }), await other.site.delete(path)]) {
        expect(res.status, path).to.equal(404);
        expect(res.body.error).to.include({ code: 'not_found', reason: 'screenshot_not_found' });
      }
    }
    expect(await rowOf(id)).to.include({ description: '' });
  });

  it('refuses to change a capture moderation removed (403 removed), which its author may still delete', async () => {
    const author = await namedPerson(app.client, 'edit_removed');
    const moderator = await staffMember(app.client, 'edit_moderator');
    const game = await catalogGame();
    const up = await uploadCapture(author.site, { game_id: String(game.id) });
    const id = up.body.data.id as string;
    const removal = await moderator.site.post(`/api/v1/moderation/content/screenshot/${id}`, { action: 'remove' });
    expect(removal.status, removal.text).to.equal(200);
    const res = await author.site.patch(`/api/v1/screenshots/${id}`, { description: 'Let me fix it' });
    expect(res.status).to.equal(403);
    expect(res.body.error).to.include({ code: 'forbidden', reason: 'removed' });
    const deleted = await author.site.delete(`/api/v1/screenshots/${id}`);
    expect(deleted.status).to.equal(200);
    expect(await rowOf(id)).to.equal(undefined);
  });

  it('deletes the capture at once with its feed item and the comments on it; a second delete is 404', async () => {
    const author = await namedPerson(app.client, 'delete_author');
    const reader = await namedPerson(app.client, 'delete_reader');
    const game = await catalogGame();
    const up = await uploadCapture(author.site, { game_id: String(game.id) });
    const id = up.body.data.id as string;
    const row = await rowOf(id);
    await comment(reader.account.id, author.account.id, { target_kind: 'SCREENSHOT', target_id: row.id });
    await comment(reader.account.id, author.account.id, {
      target_kind: 'SCREENSHOT',
      target_id: row.id,
      removed_at: new Date(),
    });
    const seen = await author.site.patch(`/api/v1/screenshots/${id}`, {});
    expect(seen.body.data.comments).to.equal(1);

    const res = await author.site.delete(`/api/v1/screenshots/${id}`);
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.equal({ data: { id, deleted: true } });
    expect(await rowOf(id)).to.equal(undefined);
    expect(await db()('activity_items').where({ subject_id: row.id })).to.have.length(0);
    expect(await db()('comments').where({ target_id: row.id })).to.have.length(0);
    const again = await author.site.delete(`/api/v1/screenshots/${id}`);
    expect(again.status).to.equal(404);
    const feed = await new SiteClient(app.client).get('/api/v1/activity?profile=delete_author');
    expect(feed.body.data).to.deep.equal([]);
  });

  it('keeps the gallery’s counts, filters and games, and the summary, true through uploads, edits and deletes', async () => {
    const owner = await namedPerson(app.client, 'kept_gallery');
    const stranger = new SiteClient(app.client);
    const zelda = await catalogGame({ name: 'Zelda', slug: 'zelda-kept' });
    const mario = await catalogGame({ name: 'Mario', slug: 'mario-kept' });
    const upload = async (fields: Record<string, string>) =>
      (await uploadCapture(owner.site, fields)).body.data.id as string;
    const castle = await upload({ game_id: String(zelda.id), description: 'A castle at dawn' });
    const boss = await upload({ game_id: String(zelda.id), contains_spoilers: 'true' });
    const pipe = await upload({ game_id: String(mario.id), visibility: 'FOLLOWERS' });
    const gallery = (query = '') => stranger.get(`/api/v1/profiles/kept_gallery/screenshots${query}`);
    const ids = (res: TestResponse) => res.body.data.map((c: { id: string }) => c.id);
    const summary = async () => (await stranger.get('/api/v1/profiles/kept_gallery/summary')).body.data;

    let res = await gallery();
    expect(ids(res)).to.deep.equal([boss, castle]);
    expect(res.body).to.include({ total: 2, safe_count: 1, spoiler_count: 1 });
    expect(res.body.games).to.deep.equal([{ extdb_id: zelda.id, game_slug: 'zelda-kept', name: 'Zelda', count: 2 }]);
    expect(await summary()).to.include({ screenshots: 2, screenshot_games: 1, screenshot_spoilers: 1 });
    expect((await owner.site.get('/api/v1/profiles/kept_gallery/screenshots')).body.total).to.equal(3);

    await owner.site.patch(`/api/v1/screenshots/${pipe}`, { visibility: 'PUBLIC', contains_spoilers: true });
    await owner.site.patch(`/api/v1/screenshots/${castle}`, { game_id: mario.id, description: 'A castle in the sky' });
    res = await gallery();
    expect(res.body).to.include({ total: 3, safe_count: 1, spoiler_count: 2 });
    expect(res.body.games).to.deep.equal([
      { extdb_id: mario.id, game_slug: 'mario-kept', name: 'Mario', count: 2 },
      { extdb_id: zelda.id, game_slug: 'zelda-kept', name: 'Zelda', count: 1 },
    ]);
    expect(ids(await gallery('?game=mario-kept'))).to.deep.equal([pipe, castle]);
    expect(ids(await gallery('?q=sky'))).to.deep.equal([castle]);
    expect(ids(await gallery('?q=dawn'))).to.deep.equal([]);
    expect(ids(await gallery('?spoilers=spoilers&sort=old'))).to.deep.equal([boss, pipe]);
    expect(await summary()).to.include({ screenshots: 3, screenshot_games: 2, screenshot_spoilers: 2 });

    await owner.site.patch(`/api/v1/screenshots/${boss}`, { visibility: 'PRIVATE' });
    await owner.site.delete(`/api/v1/screenshots/${castle}`);
    res = await gallery();
    expect(ids(res)).to.deep.equal([pipe]);
    expect(res.body).to.include({ total: 1, safe_count: 0, spoiler_count: 1 });
    expect(res.body.games).to.deep.equal([{ extdb_id: mario.id, game_slug: 'mario-kept', name: 'Mario', count: 1 }]);
    const own = await owner.site.get('/api/v1/profiles/kept_gallery/screenshots');
    expect(ids(own)).to.deep.equal([pipe, boss]);
    expect(own.body.data.map((c: { visibility: string }) => c.visibility)).to.deep.equal(['PUBLIC', 'PRIVATE']);
    expect(await summary()).to.include({ screenshots: 1, screenshot_games: 1, screenshot_spoilers: 1 });
  });
});
