// GET /profiles/{username}, /summary and /library: who sees what of a person (the visibility matrix),
// the summary's counting rules, and the scopes a key needs. The library's own parameters are tested in
// people-library.test.ts.
import { expect } from 'chai';
import { renameAccount } from '../../shared/accounts/usernames.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import type { HttpVerbs } from '../helpers/http-client.js';
import * as people from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

const VISIBILITIES = ['PUBLIC', 'FOLLOWERS', 'PRIVATE'] as const;

describe('people pages (/profiles/{username}, /summary, /library)', () => {
  useCleanDatabase();
  const app = useTestApp();
  const person = (name: string, visibility: people.Visibility = 'PUBLIC') =>
    people.namedPerson(app.client, name, visibility);

  /** One item of each visibility in every per-item table, and one library entry. */
  async function contentOf(accountId: string) {
    await people.libraryEntry(accountId, { status: 'COMPLETED' });
    for (const visibility of VISIBILITIES) {
      await people.list(accountId, { visibility });
      await people.review(accountId, { visibility });
      await people.journey(accountId, { visibility });
      await people.screenshot(accountId, { visibility });
      await people.playSession(accountId, { visibility });
    }
  }

  describe('who sees what', () => {
    // Which readers see the library ('full'), for each library visibility of the owner.
    const SEES_LIBRARY: Record<people.Visibility, string[]> = {
      PUBLIC: ['owner', 'follower', 'stranger', 'anonymous'],
      FOLLOWERS: ['owner', 'follower'],
      PRIVATE: ['owner'],
    };
    // Items each reader may see of the three (PUBLIC, FOLLOWERS, PRIVATE), whatever the account is.
    const ITEMS: Record<string, number> = { owner: 3, follower: 2, stranger: 1, anonymous: 1 };

    for (const visibility of VISIBILITIES) {
      it(`answers each reader of a ${visibility} account as it may see it, and blocked ones 404`, async () => {
        const tag = visibility.toLowerCase();
        const owner = await person(`owner_${tag}`, visibility);
        const follower = await person(`follower_${tag}`);
        const stranger = await person(`stranger_${tag}`);
        const blocker = await person(`blocker_${tag}`);
        const blocked = await person(`blocked_${tag}`);
        await people.follow(follower.account.id, owner.account.id);
        await people.block(blocker.account.id, owner.account.id);
        await people.block(owner.account.id, blocked.account.id);
        await contentOf(owner.account.id);
        const readers: Record<string, HttpVerbs> = {
          owner: owner.site,
          follower: follower.site,
          stranger: stranger.site,
          anonymous: new SiteClient(app.client),
        };
        const base = `/api/v1/profiles/owner_${tag}`;

        for (const [who, reader] of Object.entries(readers)) {
          const full = SEES_LIBRARY[visibility].includes(who);
          const profile = await reader.get(base);
          expect(profile.status, who).to.equal(200);
          expect(profile.body.data, who).to.include({ username: `owner_${tag}`, private: visibility !== 'PUBLIC' });

          const summary = (await reader.get(`${base}/summary`)).body.data;
          expect(summary.library, `${who} library`).to.equal(full ? 1 : 0);
          expect(summary.played, `${who} played`).to.equal(full ? 1 : 0);
          for (const kind of ['lists', 'reviews', 'journeys', 'screenshots', 'diary']) {
            expect(summary[kind], `${who} ${kind}`).to.equal(ITEMS[who]);
          }

          const library = await reader.get(`${base}/library`);
          expect(library.status, who).to.equal(200);
          expect(library.body.data, `${who} library rows`).to.have.length(full ? 1 : 0);
          expect(library.body.page.total_items).to.equal(full ? 1 : 0);
          expect(library.body.profile).to.deep.equal({ username: `owner_${tag}` });
        }

        for (const reader of [blocker.site, blocked.site]) {
          for (const path of [base, `${base}/summary`, `${base}/library`]) {
            const res = await reader.get(path);
            expect(res.status, path).to.equal(404);
            expect(res.body.error.code).to.equal('not_found');
          }
        }
      });
    }
  });

  describe('GET /profiles/{username}', () => {
    it('answers the public fields with the canonical name, also under an alias', async () => {
      const owner = await person('first_name', 'FOLLOWERS');
      await owner.site.patch('/api/v1/profile', { display_name: 'First', bio: 'Hi.', photo_username: 'snap' });
      await db()('accounts')
        .where({ id: owner.account.id })
        .update({ username_changed_at: new Date(2020, 0, 1) });
      await renameAccount(db(), owner.account.id, 'second_name');

      const res = await app.client.get('/api/v1/profiles/first_name');
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal({
        username: 'second_name',
        display_name: 'First',
        bio: 'Hi.',
        pronouns: '',
        thought: '',
        video_username: '',
        photo_username: 'snap',
        microblog_username: '',
        library_visibility: 'FOLLOWERS',
        avatar_url: null,
        banner_url: null,
        aliases: ['first_name'],
        created_at: new Date(owner.account.created_at).toISOString(),
        private: true,
      });
      const unknown = await app.client.get('/api/v1/profiles/nobody_here');
      expect(unknown.status).to.equal(404);
      expect(unknown.body.error.code).to.equal('not_found');
    });
  });

  describe('GET /profiles/{username} aliases', () => {
    /** Lets the account rename again at once, as if its last rename were long ago. */
    const allowRename = (accountId: string) =>
      db()('accounts')
        .where({ id: accountId })
        .update({ username_changed_at: new Date(2020, 0, 1) });
    const aliasEnds = (name: string, at: Date) => db()('usernames').where({ name }).update({ expires_at: at });
    const DAY = 86_400_000;

    it('answers the former names of the last 30 days, newest first, each of which finds the profile', async () => {
      const owner = await person('alias_one');
      await allowRename(owner.account.id);
      expect((await owner.site.patch('/api/v1/account/username', { username: 'alias_two' })).status).to.equal(200);
      // The first rename was 10 days earlier than the second: its 30 days end 10 days sooner.
      await aliasEnds('alias_one', new Date(Date.now() + 20 * DAY));
      await allowRename(owner.account.id);
      expect((await owner.site.patch('/api/v1/account/username', { username: 'alias_three' })).status).to.equal(200);
      const other = await person('alias_other');

      for (const name of ['alias_one', 'alias_two', 'alias_three']) {
        const res = await app.client.get(`/api/v1/profiles/${name}`);
        expect(res.status, name).to.equal(200);
        expect(res.body.data, name).to.include({ username: 'alias_three' });
        expect(res.body.data.aliases, name).to.deep.equal(['alias_two', 'alias_one']);
      }
      // Never anyone else's names; a person who never renamed has none.
      expect((await app.client.get('/api/v1/profiles/alias_other')).body.data.aliases).to.deep.equal([]);

      // Once its 30 days run out, a former name leaves the list and finds nobody.
      await aliasEnds('alias_one', new Date(Date.now() - 1000));
      expect((await app.client.get('/api/v1/profiles/alias_three')).body.data.aliases).to.deep.equal(['alias_two']);
      expect((await app.client.get('/api/v1/profiles/alias_one')).status).to.equal(404);
      // A block either way hides the person, aliases and all, under any of their names.
      const blocker = await person('alias_blocker');
      await people.block(owner.account.id, other.account.id);
      await people.block(blocker.account.id, owner.account.id);
      for (const reader of [other, blocker]) {
        expect((await reader.site.get('/api/v1/profiles/alias_two')).status).to.equal(404);
      }
    });
  });

  describe('GET /profiles/{username}/summary', () => {
    it('counts by the spec’s rules: replays, wishlists, closed sessions, removed captures', async () => {
      const owner = await person('counted_one');
      const id = owner.account.id;
      await people.libraryEntry(id, { status: 'COMPLETED' });
      await people.libraryEntry(id, { status: 'COMPLETED', playing: true }); // a replay
      await people.libraryEntry(id, { status: 'PLAYING', playing: true });
      await people.libraryEntry(id, { status: 'ON_HOLD', backlog: true });
      await people.libraryEntry(id, { wishlist: true });
      await people.libraryEntry(id, { status: 'WISHLIST' });
      await people.libraryEntry(id, { status: 'DROPPED', liked: true });
      await people.playSession(id);
      await people.playSession(id);
      await people.playSession(id, { ended_at: null });
      await people.screenshot(id, { game_id: 1, contains_spoilers: true });
      await people.screenshot(id, { game_id: 1 });
      await people.screenshot(id, { game_id: 2 });
      await people.screenshot(id, { game_id: 3, contains_spoilers: true, removed_at: new Date() });
      await people.screenshot(id, { game_id: 4, visibility: 'PRIVATE', removed_at: new Date() });

      const res = await owner.site.get('/api/v1/profiles/counted_one/summary');
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal({
        library: 7,
        played: 2,
        playing: 2,
        backlog: 1,
        wishlist: 2,
        lists: 0,
        reviews: 0,
        diary: 2,
        journeys: 0,
        screenshots: 3,
        screenshot_games: 2,
        screenshot_spoilers: 1,
        followers: 0,
        following: 0,
        viewer_follows: false,
        follows_viewer: false,
      });
    });

    it('counts follows both ways and says how the reader and the person follow each other', async () => {
      const owner = await person('followed_one');
      const mutual = await person('mutual_friend');
      const fan = await person('only_a_fan');
      const idol = await person('only_an_idol');
      await people.follow(mutual.account.id, owner.account.id);
      await people.follow(owner.account.id, mutual.account.id);
      await people.follow(fan.account.id, owner.account.id);
      await people.follow(owner.account.id, idol.account.id);
      const path = '/api/v1/profiles/followed_one/summary';
      const relation = async (reader: HttpVerbs) => {
        const { followers, following, viewer_follows, follows_viewer } = (await reader.get(path)).body.data;
        return { followers, following, viewer_follows, follows_viewer };
      };
      const counts = { followers: 2, following: 2 };
      expect(await relation(mutual.site)).to.deep.equal({ ...counts, viewer_follows: true, follows_viewer: true });
      expect(await relation(fan.site)).to.deep.equal({ ...counts, viewer_follows: true, follows_viewer: false });
      expect(await relation(idol.site)).to.deep.equal({ ...counts, viewer_follows: false, follows_viewer: true });
      expect(await relation(owner.site)).to.deep.equal({ ...counts, viewer_follows: false, follows_viewer: false });
      const anonymous = new SiteClient(app.client);
      expect(await relation(anonymous)).to.deep.equal({ ...counts, viewer_follows: false, follows_viewer: false });
    });
  });

  describe('keys', () => {
    it('need profile.read for the profile and summary, library.read for the library; a bad key is 401', async () => {
      const owner = await person('keyed_person');
      await people.libraryEntry(owner.account.id);
      const { token: profileKey } = await appWithKey(owner.account.id, ['profile.read']);
      const { token: libraryKey } = await appWithKey(owner.account.id, ['library.read']);
      const get = (path: string, token: string) =>
        app.client.get(`/api/v1/profiles/keyed_person${path}`, { headers: { authorization: `Bearer ${token}` } });

      for (const path of ['', '/summary']) {
        expect((await get(path, profileKey)).status, path).to.equal(200);
        const refused = await get(path, libraryKey);
        expect(refused.status, path).to.equal(403);
        expect(refused.body.error).to.include({ code: 'insufficient_scope', scope: 'profile.read' });
      }
      const library = await get('/library', libraryKey);
      expect(library.status).to.equal(200);
      expect(library.body.data).to.have.length(1);
      const refused = await get('/library', profileKey);
      expect(refused.status).to.equal(403);
      expect(refused.body.error).to.include({ code: 'insufficient_scope', scope: 'library.read' });

      for (const path of ['', '/summary', '/library']) {
        const bad = await get(path, 'not-a-key');
        expect(bad.status, path).to.equal(401);
        expect(bad.body.error.code).to.equal('invalid_key');
      }
    });
  });
});
