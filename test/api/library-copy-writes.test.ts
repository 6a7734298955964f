// POST /library/copies, PATCH and DELETE /library/copies/{id} (DECISIONS: Library): the owner's copies
// written, at most 20 per game (also under parallel requests), their refusals, and who may call.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import * as people from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

type Person = people.NamedPerson;
type Game = people.CatalogGame;

const COPIES = '/api/v1/library/copies';
const COPY_KEYS = ['id', 'game_id', 'platform_id', 'format', 'note', 'created_at'];

describe('writing the owner’s copies', () => {
  useCleanDatabase();
  const app = useTestApp();
  let owner: Person;
  let other: Person;
  let game: Game;
  let pc: Game;

  const copiesOf = (accountId: string, gameId: number) =>
    db()('library_copies').where({ account_id: accountId, game_id: gameId });

  before(async () => {
    owner = await people.namedPerson(app.client, 'copy_writer');
    other = await people.namedPerson(app.client, 'copy_neighbour');
    game = await people.catalogGame({ name: 'Outer Wilds', platform_ids: [6, 48] });
    pc = await people.catalogGame({ name: 'PC only', platform_ids: [6] });
  });

  describe('POST /library/copies', () => {
    it('creates a copy with 201, an empty note by default, and lists it', async () => {
      const res = await owner.site.post(COPIES, { game_id: game.id, platform_id: 48, format: 'physical' });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data).to.have.keys(COPY_KEYS);
      expect(res.body.data).to.include({ game_id: game.id, platform_id: 48, format: 'physical', note: '' });
      const listed = await owner.site.get(COPIES);
      expect(listed.body.data[0]).to.deep.equal(res.body.data);
    });

    it('keeps a note’s line breaks and tabs, and takes a null platform', async () => {
      const note = 'Box:\n\tmanual, map ✓';
      const res = await owner.site.post(COPIES, { game_id: game.id, platform_id: null, format: 'digital', note });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data).to.include({ note, platform_id: null, format: 'digital' });
    });

    for (const [body, field, reason] of [
      [{ format: 'digital' }, 'game_id', 'missing'],
      [{ game_id: 1 }, 'format', 'missing'],
      [{ game_id: 1, format: 'cloud' }, 'format', 'not_allowed'],
      [{ game_id: 'one', format: 'digital' }, 'game_id', 'wrong_type'],
      [{ game_id: 1, format: 'digital', platform_id: 1.5 }, 'platform_id', 'wrong_type'],
      [{ game_id: 1, format: 'digital', note: 'x'.repeat(201) }, 'note', 'too_long'],
      [{ game_id: 1, format: 'digital', note: 'bell\u0007' }, 'note', 'bad_format'],
      [{ game_id: 1, format: 'digital', note: 7 }, 'note', 'wrong_type'],
      [{ game_id: 1, format: 'digital', price: 5 }, 'price', 'unknown_field'],
    ] as const) {
      it(`refuses ${JSON.stringify(body).slice(0, 70)} with 400 ${reason} naming ${field}`, async () => {
        const res = await owner.site.post(COPIES, body);
        expect(res.status, res.text).to.equal(400);
        expect(res.body.error).to.include({ code: 'invalid_request', field, reason });
      });
    }

    it('takes a note of exactly 200 characters, counting code points', async () => {
      const res = await owner.site.post(COPIES, { game_id: pc.id, format: 'digital', note: '🎮'.repeat(200) });
      expect(res.status, res.text).to.equal(201);
    });

    it('refuses an unknown game and a platform that is not the game’s with fields_invalid', async () => {
      const unknown = await owner.site.post(COPIES, { game_id: 987654, format: 'digital' });
      expect(unknown.status).to.equal(400);
      expect(unknown.body.error).to.include({ reason: 'fields_invalid', field: 'game_id' });
      const foreign = await owner.site.post(COPIES, { game_id: pc.id, platform_id: 48, format: 'digital' });
      expect(foreign.status).to.equal(400);
      expect(foreign.body.error).to.include({ reason: 'fields_invalid', field: 'platform_id' });
    });

    it('lets exactly the free places pass when parallel requests reach the 20 copies of a game', async () => {
      const person = await people.namedPerson(app.client, 'copy_hoarder');
      const hoarded = await people.catalogGame({ platform_ids: [6] });
      await db()('library_copies').insert(
        Array.from({ length: 17 }, () => ({ account_id: person.account.id, game_id: hoarded.id, format: 'digital' })),
      );
      // Another game's copies do not count.
      await db()('library_copies').insert({ account_id: person.account.id, game_id: pc.id, format: 'digital' });
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          person.site.post(COPIES, { game_id: hoarded.id, format: 'physical', note: `copy ${i}` }),
        ),
      );
      const statuses = answers.map((res) => res.status).sort();
      expect(statuses, answers.map((res) => res.text).join('\n')).to.deep.equal([
        201, 201, 201, 409, 409, 409, 409, 409,
      ]);
      for (const refused of answers.filter((res) => res.status === 409)) {
        expect(refused.body.error).to.include({ code: 'conflict', reason: 'copies_full', limit: 20, count: 20 });
      }
      expect(await copiesOf(person.account.id, hoarded.id)).to.have.length(20);
      // Another game still takes copies.
      expect((await person.site.post(COPIES, { game_id: pc.id, format: 'digital' })).status).to.equal(201);
    });
  });

  describe('PATCH /library/copies/{id}', () => {
    let copyId: string;
    before(async () => {
      copyId = (await owner.site.post(COPIES, { game_id: game.id, platform_id: 48, format: 'digital', note: 'a' })).body
        .data.id;
    });
    const at = (id: string) => `${COPIES}/${id}`;

    it('changes only the fields sent; an empty body changes nothing', async () => {
      const before = (await owner.site.patch(at(copyId), {})).body.data;
      expect(before).to.include({ note: 'a', platform_id: 48, format: 'digital' });
      const res = await owner.site.patch(at(copyId), { note: 'gift', format: 'physical' });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.deep.equal({ ...before, note: 'gift', format: 'physical' });
      const row = await db()('library_copies').where({ id: copyId }).first();
      expect(row.updated_at.getTime()).to.be.greaterThan(row.created_at.getTime());
    });

    it('re-checks the platform against the game, sent or kept', async () => {
      const kept = await owner.site.patch(at(copyId), { game_id: pc.id });
      expect(kept.status).to.equal(400);
      expect(kept.body.error).to.include({ reason: 'fields_invalid', field: 'platform_id' });
      const sent = await owner.site.patch(at(copyId), { platform_id: 130 });
      expect(sent.body.error).to.include({ reason: 'fields_invalid', field: 'platform_id' });
      const unknown = await owner.site.patch(at(copyId), { game_id: 987654 });
      expect(unknown.body.error).to.include({ reason: 'fields_invalid', field: 'game_id' });
      const moved = await owner.site.patch(at(copyId), { game_id: pc.id, platform_id: 6 });
      expect(moved.status, moved.text).to.equal(200);
      expect(moved.body.data).to.include({ game_id: pc.id, platform_id: 6 });
      const back = await owner.site.patch(at(copyId), { game_id: game.id });
      expect(back.body.data).to.include({ game_id: game.id, platform_id: 6 });
    });

    it('refuses a move into a game that already has 20 copies', async () => {
      const full = await people.catalogGame({ platform_ids: [6] });
      await db()('library_copies').insert(
        Array.from({ length: 20 }, () => ({ account_id: owner.account.id, game_id: full.id, format: 'digital' })),
      );
      const res = await owner.site.patch(at(copyId), { game_id: full.id });
      expect(res.status).to.equal(409);
      expect(res.body.error).to.include({ reason: 'copies_full', limit: 20, count: 20 });
      // Its own game is no move.
      expect((await owner.site.patch(at(copyId), { game_id: game.id, note: 'same' })).status).to.equal(200);
    });

    for (const [body, field, reason] of [
      [{ format: 'disc' }, 'format', 'not_allowed'],
      [{ note: 'x'.repeat(201) }, 'note', 'too_long'],
      [{ note: 'nul\u001b' }, 'note', 'bad_format'],
      [{ game_id: null }, 'game_id', 'wrong_type'],
      [{ id: 'x' }, 'id', 'unknown_field'],
    ] as const) {
      it(`refuses ${JSON.stringify(body).slice(0, 60)} with 400 ${reason}`, async () => {
        const res = await owner.site.patch(at(copyId), body);
        expect(res.status).to.equal(400);
        expect(res.body.error).to.include({ field, reason });
      });
    }

    it('answers 404 copy_not_found for another account’s copy, an unknown id, or an id that is not one', async () => {
      for (const id of [randomUUID(), 'not-a-uuid']) {
        const res = await owner.site.patch(at(id), { note: 'x' });
        expect(res.status, id).to.equal(404);
        expect(res.body.error).to.include({ code: 'not_found', reason: 'copy_not_found' });
      }
      const theirs = await other.site.patch(at(copyId), { note: 'mine now' });
      expect(theirs.status).to.equal(404);
      expect(theirs.body.error.reason).to.equal('copy_not_found');
      expect((await db()('library_copies').where({ id: copyId }).first()).note).to.equal('same');
    });
  });

  describe('DELETE /library/copies/{id}', () => {
    it('deletes the owner’s copy; anyone else’s, twice, or not an id is 404 copy_not_found', async () => {
      const id = (await owner.site.post(COPIES, { game_id: pc.id, format: 'digital' })).body.data.id;
      for (const res of [
        await other.site.delete(`${COPIES}/${id}`),
        await owner.site.delete(`${COPIES}/nothing`),
        await owner.site.delete(`${COPIES}/${randomUUID()}`),
      ]) {
        expect(res.status).to.equal(404);
        expect(res.body.error).to.include({ code: 'not_found', reason: 'copy_not_found' });
      }
      const res = await owner.site.delete(`${COPIES}/${id}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ data: { id, deleted: true } });
      expect(await db()('library_copies').where({ id })).to.have.length(0);
      const again = await owner.site.delete(`${COPIES}/${id}`);
      expect(again.body.error.reason).to.equal('copy_not_found');
    });
  });

  describe('who may call', () => {
    const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

    it('needs a caller', async () => {
      const anonymous = new SiteClient(app.client);
      const id = randomUUID();
      for (const res of [
        await anonymous.post(COPIES, { game_id: pc.id, format: 'digital' }),
        await anonymous.patch(`${COPIES}/${id}`, {}),
        await anonymous.delete(`${COPIES}/${id}`),
      ]) {
        expect(res.status).to.equal(401);
        expect(res.body.error.code).to.equal('unauthorized');
      }
    });

    it('writes with a key holding library.write, refuses one without, and keeps another account’s copies out of reach', async () => {
      const person = await people.namedPerson(app.client, 'copy_keyed');
      const { token: reads } = await appWithKey(person.account.id, ['library.read']);
      const { token: writes } = await appWithKey(person.account.id, ['library.write']);
      const body = { game_id: pc.id, format: 'digital' };

      const refused = await app.client.post(COPIES, body, bearer(reads));
      expect(refused.status).to.equal(403);
      expect(refused.body.error).to.include({ code: 'insufficient_scope', scope: 'library.write' });
      const created = await app.client.post(COPIES, body, bearer(writes));
      expect(created.status, created.text).to.equal(201);
      expect(created.headers.get('x-ratelimit-resource')).to.equal('write');
      const id = created.body.data.id;
      for (const res of [
        await app.client.patch(`${COPIES}/${id}`, { note: 'x' }, bearer(reads)),
        await app.client.delete(`${COPIES}/${id}`, bearer(reads)),
      ]) {
        expect(res.status).to.equal(403);
        expect(res.body.error.scope).to.equal('library.write');
      }
      const patched = await app.client.patch(`${COPIES}/${id}`, { note: 'keyed' }, bearer(writes));
      expect(patched.body.data.note).to.equal('keyed');

      // A key of another account finds nothing at this id.
      const { token: theirs } = await appWithKey(other.account.id, ['library.read', 'library.write']);
      for (const res of [
        await app.client.patch(`${COPIES}/${id}`, { note: 'stolen' }, bearer(theirs)),
        await app.client.delete(`${COPIES}/${id}`, bearer(theirs)),
      ]) {
        expect(res.status).to.equal(404);
        expect(res.body.error.reason).to.equal('copy_not_found');
      }
      const listed = await app.client.get(COPIES, bearer(theirs));
      expect(listed.body.data.map((copy: { id: string }) => copy.id)).to.not.include(id);
      expect((await app.client.delete(`${COPIES}/${id}`, bearer(writes))).status).to.equal(200);
    });
  });
});
