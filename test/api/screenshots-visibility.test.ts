// Who sees an uploaded capture (DECISIONS: Screenshots; Shared rules): its own visibility (PUBLIC, FOLLOWERS,
// PRIVATE) as the owner, a follower, a stranger and nobody signed in read it, nothing across a block either
// way (a block wins over a follow), and a capture moderation removed to its author alone: in no gallery and
// no feed, for anyone, but still the author's when it is read by itself (readCapture, what acts on one
// capture), with `removed: true`.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import type { ApiError } from '../../shared/platform/errors.js';
import { thingSeenBy as captureSeenBy } from '../../shared/people/item-visibility.js';
import { readCapture } from '../../shared/screenshots/load-capture.js';
import { presentCapture } from '../../shared/screenshots/presenters.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { uploadCapture } from '../helpers/captures.js';
import type { HttpVerbs } from '../helpers/http-client.js';
import { testMedia, useImageWorker } from '../helpers/image-worker.js';
import { staffMember } from '../helpers/moderation.js';
import { block, catalogGame, follow, namedPerson } from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

const READERS = ['owner', 'follower', 'stranger', 'anonymous', 'blocked', 'blocker'] as const;
type Reader = (typeof READERS)[number];
const CAPTURES = ['pub', 'fol', 'priv', 'removed'] as const;
type Label = (typeof CAPTURES)[number];

/** What each reader sees in the gallery and the feed (null: the person is hidden, 404). */
const LISTED: Record<Reader, Label[] | null> = {
  owner: ['priv', 'fol', 'pub'],
  follower: ['fol', 'pub'],
  stranger: ['pub'],
  anonymous: ['pub'],
  blocked: null,
  blocker: null,
};
/** What each reader may read by itself. */
const READ_ALONE: Record<Reader, Label[]> = {
  owner: ['pub', 'fol', 'priv', 'removed'],
  follower: ['pub', 'fol'],
  stranger: ['pub'],
  anonymous: ['pub'],
  blocked: [],
  blocker: [],
};

describe('captures: who sees them', function () {
  this.timeout(60000);
  useCleanDatabase();
  const media = testMedia();
  const app = useTestApp({ media });
  useImageWorker(() => media);

  const ids = new Map<Label, string>();
  const label = (id: string) => [...ids].find(([, each]) => each === id)?.[0] ?? id;
  const sites = {} as Record<Reader, HttpVerbs>;
  const accounts = {} as Record<Reader, string | null>;

  before(async () => {
    const cast = {} as Record<Reader, Awaited<ReturnType<typeof namedPerson>>>;
    for (const reader of READERS.filter((each) => each !== 'anonymous')) {
      cast[reader] = await namedPerson(app.client, `seen_${reader}`);
      sites[reader] = cast[reader].site;
      accounts[reader] = cast[reader].account.id;
    }
    sites.anonymous = new SiteClient(app.client);
    accounts.anonymous = null;
    const owner = cast.owner.account.id;
    // Both sides of each block follow the owner: the block wins.
    for (const reader of ['follower', 'blocked', 'blocker'] as const) await follow(cast[reader].account.id, owner);
    await block(owner, cast.blocked.account.id);
    await block(cast.blocker.account.id, owner);

    const game = String((await catalogGame()).id);
    const visibility: Record<Label, string> = { pub: 'PUBLIC', fol: 'FOLLOWERS', priv: 'PRIVATE', removed: 'PUBLIC' };
    for (const each of CAPTURES) {
      const res = await uploadCapture(cast.owner.site, { game_id: game, visibility: visibility[each] });
      expect(res.status, res.text).to.equal(201);
      ids.set(each, res.body.data.id);
    }
    const moderator = await staffMember(app.client, 'seen_moderator');
    const removal = await moderator.site.post(`/api/v1/moderation/content/screenshot/${ids.get('removed')}`, {
      action: 'remove',
    });
    expect(removal.status, removal.text).to.equal(200);
  });

  for (const reader of READERS) {
    it(`${reader}: the gallery and the feed show ${LISTED[reader]?.join(', ') ?? 'nothing (404)'}`, async () => {
      const gallery = await sites[reader].get('/api/v1/profiles/seen_owner/screenshots');
      const feed = await sites[reader].get('/api/v1/activity?profile=seen_owner&kinds=screenshot');
      const expected = LISTED[reader];
      if (expected === null) {
        expect(gallery.status).to.equal(404);
        expect(feed.status).to.equal(404);
        return;
      }
      expect(gallery.status, gallery.text).to.equal(200);
      expect(gallery.body.data.map((c: { id: string }) => label(c.id))).to.deep.equal(expected);
      expect(gallery.body.total).to.equal(expected.length);
      expect(gallery.body.games[0].count).to.equal(expected.length);
      expect(feed.status, feed.text).to.equal(200);
      expect(feed.body.data.map((item: { screenshot_id: string }) => label(item.screenshot_id))).to.deep.equal(
        expected,
      );
    });

    it(`${reader}: may read ${READ_ALONE[reader].join(', ') || 'none'} by itself, and the rest is 404 as no capture is`, async () => {
      const seen: Label[] = [];
      for (const each of CAPTURES) {
        const read = await readCapture(db(), ids.get(each)!, accounts[reader]).then(
          (capture) => ({ capture }),
          (error: ApiError) => ({ error }),
        );
        if ('error' in read) {
          expect(read.error).to.include({ code: 'not_found' });
          expect(read.error.members.reason).to.equal('screenshot_not_found');
          continue;
        }
        expect(presentCapture(read.capture, (key) => key).removed, each).to.equal(each === 'removed');
        seen.push(each);
      }
      expect(seen).to.deep.equal(READ_ALONE[reader]);
    });
  }

  it('decides one capture by a pure rule: author always, removed or blocked never, else its visibility', () => {
    const author = 'a';
    const cases: Array<
      [string, 'PUBLIC' | 'FOLLOWERS' | 'PRIVATE', boolean, string | null, boolean, boolean, boolean]
    > = [
      ['author, removed private', 'PRIVATE', true, author, false, false, true],
      ['anonymous, public', 'PUBLIC', false, null, false, false, true],
      ['anonymous, followers', 'FOLLOWERS', false, null, false, false, false],
      ['follower, followers', 'FOLLOWERS', false, 'f', true, false, true],
      ['follower, private', 'PRIVATE', false, 'f', true, false, false],
      ['stranger, followers', 'FOLLOWERS', false, 's', false, false, false],
      ['follower across a block', 'PUBLIC', false, 'f', true, true, false],
      ['follower, removed', 'PUBLIC', true, 'f', true, false, false],
    ];
    for (const [what, visibility, removed, id, follows, blocked, expected] of cases) {
      expect(captureSeenBy({ authorId: author, visibility, removed }, { id, follows, blocked }), what).to.equal(
        expected,
      );
    }
  });
});
