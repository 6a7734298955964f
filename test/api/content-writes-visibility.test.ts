// The visibility matrix of what people write (issue 22): three owners, differing only in their library
// visibility, write through the API (a library entry, and a closed session, a journey and a review of each
// visibility), and every reader reads it back through the people routes: the owner, a follower, a
// stranger, nobody signed in, someone the owner blocked and someone who blocked the owner. Then the owners
// change and delete what they wrote, and the reads follow at once.
import { expect } from 'chai';
import { checkConsistency } from '../../shared/consistency/check.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import * as people from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

const OWNERS = ['PUBLIC', 'FOLLOWERS', 'PRIVATE'] as const;
type Owner = (typeof OWNERS)[number];
const READERS = ['owner', 'follower', 'stranger', 'anonymous', 'blocked', 'blocker'] as const;
type Reader = (typeof READERS)[number];
const LABELS = { PUBLIC: 'pub', FOLLOWERS: 'fol', PRIVATE: 'priv' } as const;
type Label = (typeof LABELS)[keyof typeof LABELS];

/** Which of an owner's things, by their own visibility, a reader sees (nothing across a block). */
const SEES_ITEMS: Record<Reader, Label[]> = {
  owner: ['pub', 'fol', 'priv'],
  follower: ['pub', 'fol'],
  stranger: ['pub'],
  anonymous: ['pub'],
  blocked: [],
  blocker: [],
};
/** Who sees an owner's library (its entry), by the library's visibility. */
const SEES_LIBRARY: Record<Owner, Reader[]> = {
  PUBLIC: ['owner', 'follower', 'stranger', 'anonymous'],
  FOLLOWERS: ['owner', 'follower'],
  PRIVATE: ['owner'],
};

describe('what people write, as every reader sees it', () => {
  useCleanDatabase();
  const app = useTestApp();
  let game: { id: number; slug: string };
  const owners = {} as Record<Owner, { id: string; name: string; site: SiteClient }>;
  const readers = {} as Record<Exclude<Reader, 'owner' | 'anonymous'>, SiteClient>;
  /** Thing id (review, session, journey, or the entry's game) to its label, per owner. */
  const labels = new Map<string, string>();

  const client = (reader: Reader, owner: Owner): SiteClient =>
    reader === 'owner' ? owners[owner].site : reader === 'anonymous' ? new SiteClient(app.client) : readers[reader];

  /** What a reader should see of an owner's writes, as labels. */
  function expected(reader: Reader, owner: Owner, kinds: string[]): string[] {
    const items = kinds
      .filter((kind) => kind !== 'entry')
      .flatMap((kind) => SEES_ITEMS[reader].map((label) => `${kind}:${label}`));
    if (kinds.includes('entry') && SEES_LIBRARY[owner].includes(reader)) items.push('entry');
    return items.sort();
  }

  /** The labels of feed items, by the thing each names. */
  const feedLabels = (items: Array<Record<string, string>>) =>
    items
      .map((item) =>
        item.kind === 'entry' ? 'entry' : (labels.get(item.review_id ?? item.session_id ?? item.journey_id) ?? '?'),
      )
      .sort();

  before(async () => {
    game = await people.catalogGame({ name: 'Written Quest', slug: 'written-quest', platform_ids: [6] });
    for (const owner of OWNERS) {
      const name = `writer_${LABELS[owner]}`;
      const signed = await people.namedPerson(app.client, name, owner);
      owners[owner] = { id: signed.account.id, name, site: signed.site };
    }
    for (const reader of ['follower', 'stranger', 'blocked', 'blocker'] as const) {
      const signed = await people.namedPerson(app.client, `writer_reader_${reader}`);
      readers[reader] = signed.site;
      for (const owner of OWNERS) {
        if (reader === 'follower') await people.follow(signed.account.id, owners[owner].id);
        if (reader === 'blocked') await people.block(owners[owner].id, signed.account.id);
        if (reader === 'blocker') await people.block(signed.account.id, owners[owner].id);
      }
    }
    const started = Date.now() - 6 * 3_600_000;
    for (const owner of OWNERS) {
      const site = owners[owner].site;
      const entry = await site.put(`/api/v1/library/${game.slug}`, { status: 'COMPLETED', rating: 90 });
      expect(entry.status, entry.text).to.equal(201);
      for (const [visibility, label] of Object.entries(LABELS)) {
        const at = started + Object.keys(LABELS).indexOf(visibility) * 3_600_000;
        const session = await site.post('/api/v1/journal/sessions', {
          game_id: game.id,
          started_at: new Date(at).toISOString(),
          ended_at: new Date(at + 45 * 60_000).toISOString(),
          visibility,
        });
        expect(session.status, session.text).to.equal(201);
        labels.set(session.body.data.id, `session:${label}`);
        const journey = await site.post('/api/v1/journal/journeys', {
          game_id: game.id,
          title: `run ${label}`,
          started_at: new Date(started - 60_000).toISOString(),
          visibility,
        });
        expect(journey.status, journey.text).to.equal(201);
        labels.set(journey.body.data.id, `journey:${label}`);
        const review = await site.post('/api/v1/reviews', { game_id: game.id, body: `review ${label}`, visibility });
        expect(review.status, review.text).to.equal(201);
        labels.set(review.body.data.id, `review:${label}`);
      }
    }
  });

  for (const owner of OWNERS) {
    for (const reader of READERS) {
      const blocked = reader === 'blocked' || reader === 'blocker';

      it(`${owner} owner, ${reader}: the person's feed, reviews and summary`, async () => {
        const { name } = owners[owner];
        const feed = await client(reader, owner).get(`/api/v1/activity?profile=${name}`);
        if (blocked) {
          expect(feed.status).to.equal(404);
          expect((await client(reader, owner).get(`/api/v1/profiles/${name}/summary`)).status).to.equal(404);
          expect((await client(reader, owner).get(`/api/v1/profiles/${name}/reviews`)).status).to.equal(404);
          return;
        }
        expect(feed.status, feed.text).to.equal(200);
        expect(feedLabels(feed.body.data)).to.deep.equal(
          expected(reader, owner, ['entry', 'session', 'journey', 'review']),
        );
        const reviews = await client(reader, owner).get(`/api/v1/profiles/${name}/reviews`);
        expect(feedLabels(reviews.body.data)).to.deep.equal(expected(reader, owner, ['session', 'review']));
        const summary = await client(reader, owner).get(`/api/v1/profiles/${name}/summary`);
        const seen = SEES_ITEMS[reader].length;
        expect(summary.body.data).to.include({ reviews: seen, diary: seen, journeys: seen });
        expect(summary.body.data.library).to.equal(SEES_LIBRARY[owner].includes(reader) ? 1 : 0);
      });

      it(`${owner} owner, ${reader}: the library, journeys, each review and the game's feed`, async () => {
        const { name } = owners[owner];
        const reader$ = client(reader, owner);
        const library = await reader$.get(`/api/v1/profiles/${name}/library`);
        const journeys = await reader$.get(`/api/v1/profiles/${name}/journeys`);
        if (blocked) {
          expect([library.status, journeys.status]).to.deep.equal([404, 404]);
        } else {
          const sees = SEES_LIBRARY[owner].includes(reader);
          expect(library.body.data.map((e: { game_id: number }) => e.game_id)).to.deep.equal(sees ? [game.id] : []);
          const runs = journeys.body.data.map((j: { id: string }) => labels.get(j.id)).sort();
          expect(runs).to.deep.equal(expected(reader, owner, ['journey']));
          // Each run holds the three sessions; it counts those the reader may see by their own visibility.
          for (const run of journeys.body.data) {
            expect(run.sessions, labels.get(run.id)).to.equal(SEES_ITEMS[reader].length);
            expect(run.minutes).to.equal(45 * SEES_ITEMS[reader].length);
          }
        }
        for (const [id, label] of labels) {
          if (!label.startsWith('review:')) continue;
          const res = await reader$.get(`/api/v1/reviews/${id}`);
          if (res.status === 404 || res.body.data.username !== name) continue;
          expect(SEES_ITEMS[reader], `${label} shown`).to.include(label.slice('review:'.length));
        }
        const gameFeed = await reader$.get(`/api/v1/games/${game.slug}/activity?limit=100`);
        const mine = gameFeed.body.data.filter((item: { username: string }) => item.username === name);
        expect(feedLabels(mine)).to.deep.equal(
          blocked ? [] : expected(reader, owner, ['entry', 'session', 'journey', 'review']),
        );
      });
    }
  }

  it('shows each review to exactly the readers the matrix names, by id', async () => {
    for (const owner of OWNERS) {
      for (const reader of READERS) {
        const seen: string[] = [];
        for (const [id, label] of labels) {
          if (!label.startsWith('review:')) continue;
          const res = await client(reader, owner).get(`/api/v1/reviews/${id}`);
          if (res.status === 200 && res.body.data.username === owners[owner].name) seen.push(label);
          else expect(res.status === 200 || res.status === 404, res.text).to.equal(true);
        }
        expect(seen.sort(), `${owner} ${reader}`).to.deep.equal(expected(reader, owner, ['review']));
      }
    }
  });

  it('follows an owner who makes a review private, then deletes it: gone from every read at once', async () => {
    const { site, name } = owners.PUBLIC;
    // The PUBLIC owner's public review: found through their own feed.
    const own = await site.get(`/api/v1/profiles/${name}/reviews?kinds=review`);
    const item = own.body.data.find((i: { review_id: string }) => labels.get(i.review_id) === 'review:pub');
    expect(item).to.not.equal(undefined);
    const id = item.review_id as string;
    const stranger = readers.stranger;

    const hidden = await site.patch(`/api/v1/reviews/${id}`, { visibility: 'PRIVATE' });
    expect(hidden.status, hidden.text).to.equal(200);
    expect((await stranger.get(`/api/v1/reviews/${id}`)).status).to.equal(404);
    const strangerFeed = await stranger.get(`/api/v1/activity?profile=${name}&kinds=review`);
    expect(strangerFeed.body.data.map((i: { review_id: string }) => i.review_id)).to.not.include(id);
    expect((await stranger.get(`/api/v1/profiles/${name}/summary`)).body.data.reviews).to.equal(0);

    const deleted = await site.delete(`/api/v1/reviews/${id}`);
    expect(deleted.status, deleted.text).to.equal(200);
    const ownFeed = await site.get(`/api/v1/activity?profile=${name}&kinds=review`);
    expect(ownFeed.body.data.map((i: { review_id: string }) => i.review_id)).to.not.include(id);
    expect((await site.get(`/api/v1/reviews/${id}`)).status).to.equal(404);
    expect((await site.get(`/api/v1/profiles/${name}/summary`)).body.data.reviews).to.equal(2);
  });

  it('follows an owner who ignores the game: the entry leaves the profile, its item every feed', async () => {
    const { site, name } = owners.PUBLIC;
    const ignored = await site.patch(`/api/v1/library/${game.id}`, { ignored: true });
    expect(ignored.status, ignored.text).to.equal(200);
    const stranger = readers.stranger;
    expect((await stranger.get(`/api/v1/profiles/${name}/library`)).body.data).to.deep.equal([]);
    const feed = await stranger.get(`/api/v1/activity?profile=${name}&kinds=entry`);
    expect(feed.body.data).to.deep.equal([]);
    // The owner's own library still holds it.
    const own = await site.get('/api/v1/library');
    expect(own.body.data.map((e: { game_id: number; ignored: boolean }) => [e.game_id, e.ignored])).to.deep.equal([
      [game.id, true],
    ]);
  });

  it('leaves every stored item visibility equal to the rule after all those writes, changes and deletes', async () => {
    const findings = (await checkConsistency(db())).filter((finding) => finding.rule.startsWith('an activity item'));
    expect(findings, JSON.stringify(findings)).to.deep.equal([]);
  });
});
