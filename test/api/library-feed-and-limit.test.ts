// The owner's library entries (DECISIONS: Library): the feed item a creation or a change of status or rating
// writes and its 10-minute coalescing, and the 20,000-entry limit under parallel creators.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { LIBRARY_ENTRY_LIMIT } from '../../shared/library/entry-rules.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import * as people from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

type Person = people.NamedPerson;

const entryItems = (accountId: string) =>
  db()('activity_items').where({ account_id: accountId, kind: 'entry' }).orderBy('created_at');

describe('the owner’s library: feed items and the 20,000-entry limit', () => {
  useCleanDatabase();
  const app = useTestApp();
  const path = (g: { id: number } | string) => `/api/v1/library/${typeof g === 'string' ? g : g.id}`;

  describe('feed items', () => {
    it('writes one item on creation and coalesces changes within 10 minutes; a later change adds one', async () => {
      const person = await people.namedPerson(app.client, 'feed_shelf');
      const fresh = await people.catalogGame({ platform_ids: [6] });
      await person.site.put(path(fresh), { status: 'PLAYING' });
      const [first] = await entryItems(person.account.id);
      expect(first).to.include({ kind: 'entry', game_id: fresh.id, visibility: 'PUBLIC' });

      await person.site.patch(path(fresh), { rating: 60 });
      await person.site.put(path(fresh), { status: 'COMPLETED', rating: 60 });
      const coalesced = await entryItems(person.account.id);
      expect(coalesced).to.have.length(1);
      expect(coalesced[0].id).to.equal(first.id);
      expect(new Date(coalesced[0].created_at).getTime()).to.be.at.least(new Date(first.created_at).getTime());

      await db()('activity_items')
        .where({ id: first.id })
        .update({ created_at: db().raw("created_at - interval '11 minutes'") });
      // Neither flags, platform nor finish tell the feed.
      await person.site.patch(path(fresh), { liked: true, backlog: true, platform_id: 6 });
      expect(await entryItems(person.account.id)).to.have.length(1);
      await person.site.patch(path(fresh), { status: 'COMPLETED' });
      expect(await entryItems(person.account.id)).to.have.length(1);

      await person.site.patch(path(fresh), { rating: 65 });
      const items = await entryItems(person.account.id);
      expect(items).to.have.length(2);
      expect(items[0].id).to.equal(first.id);

      // The feed shows it to a stranger.
      const feed = await new SiteClient(app.client).get('/api/v1/activity?profile=feed_shelf');
      expect(feed.status, feed.text).to.equal(200);
      expect(feed.body.data.map((item: { kind: string }) => item.kind)).to.include('entry');
    });

    it('writes no item for an ignored entry, created or changed', async () => {
      const person = await people.namedPerson(app.client, 'feed_ignorer');
      const fresh = await people.catalogGame({ platform_ids: [6] });
      expect((await person.site.put(path(fresh), { ignored: true, status: 'DROPPED' })).status).to.equal(201);
      await person.site.patch(path(fresh), { rating: 10, status: 'PLAYING' });
      expect(await entryItems(person.account.id)).to.have.length(0);
      // Ignored no more: the next change of status tells the feed.
      await person.site.patch(path(fresh), { ignored: false });
      expect(await entryItems(person.account.id)).to.have.length(0);
      await person.site.patch(path(fresh), { status: 'COMPLETED' });
      expect(await entryItems(person.account.id)).to.have.length(1);
    });
  });

  describe('the 20,000-entry limit', () => {
    it('is the same number in the code and in the database’s check', async () => {
      const { rows } = await db().raw(
        "SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'library_counts_limit'",
      );
      expect(rows[0].def).to.include(`(entries <= ${LIBRARY_ENTRY_LIMIT})`);
    });

    let full: Person;
    before(async () => {
      full = await people.namedPerson(app.client, 'full_shelf');
      // 19,999 entries of games the catalog does not know (the limit counts entries, not games).
      await db().raw(
        `INSERT INTO library_entries (account_id, game_id) SELECT ?, 1000000 + n FROM generate_series(1, 19999) n`,
        [full.account.id],
      );
    });

    it('lets exactly one of two parallel creators take the last place; the other is 409 library_full', async () => {
      const [a, b] = [await people.catalogGame({ platform_ids: [6] }), await people.catalogGame({ platform_ids: [6] })];
      const answers = await Promise.all([full.site.put(path(a), { rating: 1 }), full.site.put(path(b), { rating: 2 })]);
      const statuses = answers.map((res) => res.status).sort();
      expect(statuses, answers.map((res) => res.text).join('\n')).to.deep.equal([201, 409]);
      const refused = answers.find((res) => res.status === 409)!;
      expect(refused.body.error).to.include({ code: 'conflict', reason: 'library_full', limit: 20000, count: 20000 });
      const [{ count }] = await db()('library_entries').where({ account_id: full.account.id }).count({ count: '*' });
      expect(Number(count)).to.equal(20000);

      // A full library still replaces and changes what it holds, and makes room by deleting.
      const kept = answers.find((res) => res.status === 201)!.body.data.game_id;
      expect((await full.site.put(path(String(kept)), { rating: 3 })).status).to.equal(200);
      expect((await full.site.patch(path(String(kept)), { rating: 4 })).status).to.equal(200);
      const third = await people.catalogGame({ platform_ids: [6] });
      const again = await full.site.put(path(third), {});
      expect(again.status).to.equal(409);
      expect((await full.site.delete(path(String(kept)))).status).to.equal(200);
      expect((await full.site.put(path(third), {})).status).to.equal(201);
    });

    it('refuses an import that would pass the limit, and takes one that only replaces', async () => {
      const fresh = await people.catalogGame({ platform_ids: [6] });
      const held = (
        await db()('library_entries').where({ account_id: full.account.id }).orderBy('created_at', 'desc').first()
      ).game_id;
      const heldGame = await db()('games').where({ id: held }).first();
      expect(heldGame, 'the last entry is of a catalog game').to.exist;
      const refused = await full.site.post('/api/v1/library/import', {
        entries: [{ game_id: held }, { game_id: fresh.id }],
      });
      expect(refused.status, refused.text).to.equal(409);
      expect(refused.body.error).to.include({ reason: 'library_full', limit: 20000, count: 20000 });
      const replaced = await full.site.post('/api/v1/library/import', { entries: [{ game_id: held, rating: 9 }] });
      expect(replaced.status, replaced.text).to.equal(200);
      expect(replaced.body.data).to.deep.equal({ created: 0, updated: 1 });
    });
  });
});
