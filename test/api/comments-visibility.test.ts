// Who reads and writes comments where (DECISIONS: Likes and comments): on a thing, whoever may see it (its
// own visibility, blocks either way, moderation's removal; the author always); on a profile, whoever may
// see it, a private account's conversation kept to its owner and followers (403 `followers_only`), and a
// block either way 404 in both directions. Inside a conversation, the rule of the profile conversation of
// GET /profiles/{u}/social, which GET /comments on PROFILE answers the same.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { staffMember } from '../helpers/moderation.js';
import { block, comment, namedPerson } from '../helpers/people.js';
import {
  circle,
  COMMENT_KIND,
  NOT_FOUND_REASON,
  READERS,
  refused,
  thing,
  THING_KINDS,
  type Circle,
  type Reader,
} from '../helpers/social-things.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

const VISIBILITIES = ['PUBLIC', 'FOLLOWERS', 'PRIVATE'] as const;
type Visibility = (typeof VISIBILITIES)[number];

/** Who sees a thing of each visibility: an unanswered request is not a follow; no one across a block. */
const SEES_THING: Record<Visibility, Reader[]> = {
  PUBLIC: ['owner', 'follower', 'requester', 'stranger', 'anonymous'],
  FOLLOWERS: ['owner', 'follower'],
  PRIVATE: ['owner'],
};
/** Who joins a profile's conversation, by the account's library visibility. */
const IN_CONVERSATION: Record<Visibility, Reader[]> = {
  PUBLIC: ['owner', 'follower', 'requester', 'stranger', 'anonymous'],
  FOLLOWERS: ['owner', 'follower'],
  PRIVATE: ['owner', 'follower'],
};
const BLOCKED: Reader[] = ['blocked', 'blocker'];

describe('comments: who reads and writes where', () => {
  useCleanDatabase();
  const app = useTestApp();

  const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((item) => item.id);

  it('reads and writes on a thing by its own visibility, blocks either way and removal', async function () {
    this.timeout(60_000);
    // A private library changes nothing: a thing shows by its own visibility.
    const people = await circle(app.client, 'cv_thing', 'PRIVATE');
    for (const kind of THING_KINDS) {
      const on = COMMENT_KIND[kind];
      const reason = NOT_FOUND_REASON[kind];
      for (const visibility of VISIBILITIES) {
        const target = await thing(people.owner.id, kind, { visibility });
        const seeded = await comment(people.ids.follower, people.owner.id, {
          target_kind: on,
          target_id: target.rowId,
        });
        for (const reader of READERS) {
          const label = `${reader} on a ${visibility} ${kind}`;
          const site = people.sites[reader];
          const read = await site.get(`/api/v1/comments?on=${on}&id=${target.id}`);
          const written = await site.post('/api/v1/comments', { on, id: target.id, body: label });
          if (!SEES_THING[visibility].includes(reader)) {
            refused(read, 404, { code: 'not_found', reason }, label);
            refused(written, reader === 'anonymous' ? 401 : 404, reader === 'anonymous' ? {} : { reason }, label);
            continue;
          }
          expect(read.status, `${label}: ${read.text}`).to.equal(200);
          expect(ids(read), label).to.include(seeded.id);
          if (reader === 'anonymous') refused(written, 401, { code: 'unauthorized' }, label);
          else expect(written.status, `${label}: ${written.text}`).to.equal(201);
        }
      }
      // Removed by moderation: its author alone still reads and answers there.
      const removed = await thing(people.owner.id, kind, { removed_at: new Date() });
      for (const reader of READERS) {
        const read = await people.sites[reader].get(`/api/v1/comments?on=${on}&id=${removed.id}`);
        if (reader === 'owner') expect(read.status, `owner on a removed ${kind}`).to.equal(200);
        else refused(read, 404, { reason }, `${reader} on a removed ${kind}`);
      }
      refused(await people.sites.follower.post('/api/v1/comments', { on, id: removed.id, body: 'x' }), 404, {
        reason,
      });
    }
    // Nothing was written across a block, in either direction.
    for (const reader of BLOCKED) {
      expect(await db()('comments').where({ account_id: people.ids[reader as 'blocked' | 'blocker'] })).to.have.length(
        0,
      );
    }
  });

  for (const visibility of VISIBILITIES) {
    it(`keeps a ${visibility} account’s conversation to whom its pages show, and 404 across a block`, async () => {
      const prefix = `cv_${visibility.slice(0, 3).toLowerCase()}`;
      const people: Circle = await circle(app.client, prefix, visibility);
      const seeded = await comment(people.ids.follower, people.owner.id);
      for (const reader of READERS) {
        const label = `${reader} of a ${visibility} account`;
        const site = people.sites[reader];
        const read = await site.get(`/api/v1/comments?on=PROFILE&id=${people.owner.username}`);
        const written = await site.post('/api/v1/comments', { on: 'PROFILE', id: people.owner.username, body: label });
        const social = await site.get(`/api/v1/profiles/${people.owner.username}/social`);
        if (BLOCKED.includes(reader)) {
          refused(read, 404, { code: 'not_found' }, label);
          refused(written, 404, { code: 'not_found' }, label);
          continue;
        }
        if (!IN_CONVERSATION[visibility].includes(reader)) {
          refused(read, 403, { code: 'forbidden', reason: 'followers_only' }, label);
          if (reader === 'anonymous') refused(written, 401, { code: 'unauthorized' }, label);
          else refused(written, 403, { code: 'forbidden', reason: 'followers_only' }, label);
          // The profile's own answer hides the conversation from the same readers.
          expect(social.body.data.conversation, label).to.equal(null);
          continue;
        }
        expect(read.status, `${label}: ${read.text}`).to.equal(200);
        expect(ids(read), label).to.include(seeded.id);
        if (reader === 'anonymous') refused(written, 401, { code: 'unauthorized' }, label);
        else expect(written.status, `${label}: ${written.text}`).to.equal(201);
        // What the profile shows is what GET /comments answers, after the write too.
        const after = await site.get(`/api/v1/comments?on=PROFILE&id=${people.owner.username}`);
        const conversation = (await site.get(`/api/v1/profiles/${people.owner.username}/social`)).body.data
          .conversation;
        expect(
          conversation.comments.map((each: { id: string }) => each.id),
          label,
        ).to.deep.equal(ids(after));
        expect(conversation.total, label).to.equal(after.body.data.length);
      }
    });
  }

  it('leaves out, as the profile does, removed comments, blocked and suspended authors', async function () {
    this.timeout(30_000);
    const owner = await namedPerson(app.client, 'cv_talk_owner');
    const reader = await namedPerson(app.client, 'cv_talk_reader');
    const staff = await staffMember(app.client, 'cv_talk_staff');
    const authors: Record<string, Awaited<ReturnType<typeof namedPerson>>> = {};
    for (const role of ['friend', 'owner_blocked', 'reader_blocked', 'blocks_reader', 'suspended', 'removed']) {
      authors[role] = await namedPerson(app.client, `cv_talk_${role}`);
    }
    const review = await thing(owner.account.id, 'review');
    const places = [
      { on: 'PROFILE', id: 'cv_talk_owner' },
      { on: 'REVIEW', id: review.id },
    ];
    const written: Record<string, Record<string, string>> = { PROFILE: {}, REVIEW: {} };
    for (const place of places) {
      for (const [role, author] of Object.entries(authors)) {
        const res = await author.site.post('/api/v1/comments', { ...place, body: `${role} says hi` });
        expect(res.status, `${role}: ${res.text}`).to.equal(201);
        written[place.on][role] = res.body.data.id;
      }
    }
    await block(owner.account.id, authors.owner_blocked.account.id);
    await block(reader.account.id, authors.reader_blocked.account.id);
    await block(authors.blocks_reader.account.id, reader.account.id);
    await db()('infractions').insert({
      account_id: authors.suspended.account.id,
      reason: 'Suspensão',
      expires_at: new Date(Date.now() + 86_400_000),
    });
    await db()('comments')
      .whereIn('id', [written.PROFILE.removed, written.REVIEW.removed])
      .update({ removed_at: new Date() });

    const seen: Array<[string, SiteClient, string[]]> = [
      ['reader', reader.site, ['friend']],
      ['anonymous', new SiteClient(app.client), ['friend', 'reader_blocked', 'blocks_reader']],
      ['staff', staff.site, ['friend', 'reader_blocked', 'blocks_reader', 'suspended']],
      ['the suspended author', authors.suspended.site, ['friend', 'reader_blocked', 'blocks_reader', 'suspended']],
      ['the owner', owner.site, ['friend', 'reader_blocked', 'blocks_reader']],
    ];
    for (const [who, site, roles] of seen) {
      for (const place of places) {
        const res = await site.get(`/api/v1/comments?on=${place.on}&id=${place.id}`);
        expect(res.status, `${who} on ${place.on}: ${res.text}`).to.equal(200);
        const expected = roles.map((role) => written[place.on][role]).reverse();
        expect(ids(res), `${who} on ${place.on}`).to.deep.equal(expected);
        if (place.on !== 'PROFILE') continue;
        const social = (await site.get('/api/v1/profiles/cv_talk_owner/social')).body.data.conversation;
        expect(
          social.comments.map((each: { id: string }) => each.id),
          who,
        ).to.deep.equal(expected);
        expect(social.total, who).to.equal(expected.length);
      }
    }
  });

  it('walks a conversation by before, newest first', async () => {
    const owner = await namedPerson(app.client, 'cv_walk_owner');
    const review = await thing(owner.account.id, 'review');
    const made: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const row = await comment(owner.account.id, owner.account.id, {
        target_kind: 'REVIEW',
        target_id: review.rowId,
        body: `n${i}`,
        created_at: new Date(Date.UTC(2026, 10, 20, 10, 0, i)),
      });
      made.push(row.id as string);
    }
    const path = `/api/v1/comments?on=REVIEW&id=${review.id}&limit=2`;
    const first = await owner.site.get(path);
    expect(ids(first)).to.deep.equal([made[4], made[3]]);
    expect(first.body).to.include({ has_more: true, next_before: '2026-11-20T10:00:03.000000Z' });
    const second = await owner.site.get(`${path}&before=${first.body.next_before}`);
    expect(ids(second)).to.deep.equal([made[2], made[1]]);
    const last = await owner.site.get(`${path}&before=${second.body.next_before}`);
    expect(ids(last)).to.deep.equal([made[0]]);
    expect(last.body).to.include({ has_more: false, next_before: null });
  });
});
