// Events for integrations, the owner's things (DECISIONS: Events for integrations): every type of the library,
// the journal, reviews, lists and screenshots made by its real route, delivered, verified against the key
// set, and carrying what the owner's read route answers right after (deleted types: the ids only); changes
// that change nothing make none, and one request makes one per thing. People's types: app-events-types-people.
import { expect } from 'chai';
import { ensureSigningKeys } from '../../shared/identity/signing-keys.js';
import { config } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import { delivered, made, nth, subscribedPerson } from '../helpers/app-event-types.js';
import { uploadCapture } from '../helpers/captures.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { startEventReceiver, type EventReceiver } from '../helpers/event-receiver.js';
import { testMedia, useImageWorker } from '../helpers/image-worker.js';
import { useJobWorker } from '../helpers/job-worker.js';
import { bearer, fromNow } from '../helpers/journal.js';
import * as people from '../helpers/people.js';
import { useTestApp } from '../helpers/test-app.js';

describe('events for integrations: the owner’s things', function () {
  this.timeout(60000);
  useCleanDatabase();
  const media = testMedia();
  const app = useTestApp({ media });
  useJobWorker(['app-event.deliver']);
  useImageWorker(() => media);
  let receiver: EventReceiver;
  let game: people.CatalogGame;
  let other: people.CatalogGame;

  before(async () => {
    await ensureSigningKeys(db(), config().secret);
    receiver = await startEventReceiver(app.client.baseUrl);
    game = await people.catalogGame({ name: 'Hollow Knight', platform_ids: [6] });
    other = await people.catalogGame({ name: 'Celeste', platform_ids: [6] });
  });
  after(() => receiver.close());

  const ok = (res: { status: number; text: string }, status = 200) => expect(res.status, res.text).to.equal(status);

  it('library.entry.saved and .deleted: the entry of GET /library/{game}, the ids once deleted', async () => {
    const owner = await subscribedPerson(
      app.client,
      receiver,
      'ev_library',
      ['library.read', 'library.write'],
      ['library.entry.saved', 'library.entry.deleted'],
    );
    ok(await owner.site.put(`/api/v1/library/${game.id}`, { status: 'PLAYING', rating: 8 }), 201);
    const first = await nth(receiver, owner, 'library.entry.saved');
    expect(first.claims.data).to.deep.equal((await owner.site.get(`/api/v1/library/${game.id}`)).body.data);

    // The same again changes nothing; a change by a key makes the next.
    ok(await owner.site.put(`/api/v1/library/${game.id}`, { status: 'PLAYING', rating: 8 }));
    expect(await made(owner.appId, 'library.entry.saved')).to.equal(1);
    ok(await app.client.put(`/api/v1/library/${game.id}`, { status: 'COMPLETED' }, bearer(owner.token)));
    const second = await nth(receiver, owner, 'library.entry.saved', 2);
    expect(second.claims.data).to.deep.equal((await owner.site.get(`/api/v1/library/${game.id}`)).body.data);
    expect(second.claims.seq).to.be.above(first.claims.seq);

    const entry = await db()('library_entries').where({ account_id: owner.account.id, game_id: game.id }).first();
    ok(await owner.site.delete(`/api/v1/library/${game.id}`));
    const deleted = await nth(receiver, owner, 'library.entry.deleted');
    expect(deleted.claims.data).to.deep.equal({ game_id: game.id, entry_id: entry.id });
    expect(await made(owner.appId)).to.equal(3);
  });

  it('journal.session.closed: on closing only, the session as GET /journal/sessions lists it', async () => {
    const owner = await subscribedPerson(
      app.client,
      receiver,
      'ev_sessions',
      ['journal.read', 'journal.write'],
      ['journal.session.closed'],
    );
    const listed = async (id: string) =>
      ((await owner.site.get('/api/v1/journal/sessions')).body.data as Array<{ id: string }>).find((s) => s.id === id);

    const live = await owner.site.post('/api/v1/journal/sessions', { game_id: game.id, started_at: fromNow(-90) });
    ok(live, 201);
    expect(await made(owner.appId)).to.equal(0);
    ok(await owner.site.patch(`/api/v1/journal/sessions/${live.body.data.id}`, { ended_at: fromNow(-10) }));
    const closed = await nth(receiver, owner, 'journal.session.closed');
    expect(closed.claims.data).to.deep.equal(await listed(live.body.data.id));
    // A later note edit is no closing.
    ok(await owner.site.patch(`/api/v1/journal/sessions/${live.body.data.id}`, { note: 'Got the dash.' }));
    expect(await made(owner.appId)).to.equal(1);

    // Logged closed, by a key.
    const logged = await app.client.post(
      '/api/v1/journal/sessions',
      { game_id: other.id, started_at: fromNow(-300), ended_at: fromNow(-200) },
      bearer(owner.token),
    );
    ok(logged, 201);
    const second = await nth(receiver, owner, 'journal.session.closed', 2);
    expect(second.claims.data).to.deep.equal(await listed(logged.body.data.id));
    expect(await made(owner.appId)).to.equal(2);
  });

  it('journal.journey.saved: the journey as GET /journal/journeys lists it, not for a change of nothing', async () => {
    const owner = await subscribedPerson(
      app.client,
      receiver,
      'ev_journeys',
      ['journal.read', 'journal.write'],
      ['journal.journey.saved'],
    );
    const listed = async (id: string) =>
      ((await owner.site.get('/api/v1/journal/journeys')).body.data as Array<{ id: string }>).find((j) => j.id === id);
    const created = await owner.site.post('/api/v1/journal/journeys', {
      game_id: game.id,
      title: 'Steel Soul',
      started_at: fromNow(-60),
    });
    ok(created, 201);
    const id = created.body.data.id as string;
    expect((await nth(receiver, owner, 'journal.journey.saved')).claims.data).to.deep.equal(await listed(id));
    ok(await owner.site.patch(`/api/v1/journal/journeys/${id}`, { title: 'Steel Soul' }));
    expect(await made(owner.appId)).to.equal(1);
    ok(await owner.site.patch(`/api/v1/journal/journeys/${id}`, { title: 'Radiant', visibility: 'FOLLOWERS' }));
    expect((await nth(receiver, owner, 'journal.journey.saved', 2)).claims.data).to.deep.equal(await listed(id));
  });

  it('review.saved and .deleted: the review of GET /reviews/{id}; a PATCH of the same body makes none', async () => {
    const owner = await subscribedPerson(
      app.client,
      receiver,
      'ev_reviews',
      ['reviews.read', 'reviews.write'],
      ['review.saved', 'review.deleted'],
    );
    const posted = await owner.site.post('/api/v1/reviews', { game_id: game.id, body: 'A bug kingdom.', rating: 9 });
    ok(posted, 201);
    const id = posted.body.data.id as string;
    const read = async () => (await owner.site.get(`/api/v1/reviews/${id}`)).body.data;
    expect((await nth(receiver, owner, 'review.saved')).claims.data).to.deep.equal(await read());
    ok(await owner.site.patch(`/api/v1/reviews/${id}`, { body: 'A bug kingdom.', rating: 9 }));
    expect(await made(owner.appId)).to.equal(1);
    ok(await owner.site.patch(`/api/v1/reviews/${id}`, { body: 'A bug kingdom, deep.', contains_spoilers: true }));
    expect((await nth(receiver, owner, 'review.saved', 2)).claims.data).to.deep.equal(await read());
    ok(await owner.site.delete(`/api/v1/reviews/${id}`));
    expect((await nth(receiver, owner, 'review.deleted')).claims.data).to.deep.equal({ id });
    expect(await made(owner.appId)).to.equal(3);
  });

  it('list.saved and .deleted: one per request writing a list and its items, the list of GET /lists/{id}', async () => {
    const owner = await subscribedPerson(
      app.client,
      receiver,
      'ev_lists',
      ['lists.read', 'lists.write'],
      ['list.saved', 'list.deleted'],
    );
    const posted = await owner.site.post('/api/v1/lists', {
      title: 'Metroidvanias',
      mode: 'ranked',
      items: [{ game_id: game.id }, { game_id: other.id }],
    });
    ok(posted, 201);
    const id = posted.body.data.id as string;
    const read = async () => (await owner.site.get(`/api/v1/lists/${id}`)).body.data;
    expect((await nth(receiver, owner, 'list.saved')).claims.data).to.deep.equal(await read());
    expect(await made(owner.appId)).to.equal(1);

    ok(await owner.site.put(`/api/v1/lists/${id}/items`, { items: [{ game_id: other.id }, { game_id: game.id }] }));
    expect((await nth(receiver, owner, 'list.saved', 2)).claims.data).to.deep.equal(await read());
    ok(await owner.site.patch(`/api/v1/lists/${id}`, { title: 'Metroidvanias' }));
    expect(await made(owner.appId)).to.equal(2);
    ok(await owner.site.patch(`/api/v1/lists/${id}`, { description: 'Best first.' }));
    expect((await nth(receiver, owner, 'list.saved', 3)).claims.data).to.deep.equal(await read());

    ok(await owner.site.delete(`/api/v1/lists/${id}`));
    expect((await nth(receiver, owner, 'list.deleted')).claims.data).to.deep.equal({ id });
    expect(await made(owner.appId)).to.equal(4);
  });

  it('screenshot.saved and .deleted: the capture as PATCH /screenshots/{id} answers it, the public id once deleted', async () => {
    const owner = await subscribedPerson(
      app.client,
      receiver,
      'ev_shots',
      ['screenshots.read', 'screenshots.write'],
      ['screenshot.saved', 'screenshot.deleted'],
    );
    const up = await uploadCapture(owner.site, { game_id: String(game.id), description: 'The bench' });
    ok(up, 201);
    const id = up.body.data.id as string;
    const first = await nth(receiver, owner, 'screenshot.saved');
    // An empty PATCH changes nothing and answers the capture.
    const unchanged = await owner.site.patch(`/api/v1/screenshots/${id}`, {});
    ok(unchanged);
    expect(first.claims.data).to.deep.equal(unchanged.body.data);
    expect(await made(owner.appId)).to.equal(1);

    const edited = await owner.site.patch(`/api/v1/screenshots/${id}`, { description: 'The bench, lit' });
    ok(edited);
    expect((await nth(receiver, owner, 'screenshot.saved', 2)).claims.data).to.deep.equal(edited.body.data);
    ok(await owner.site.delete(`/api/v1/screenshots/${id}`));
    expect((await nth(receiver, owner, 'screenshot.deleted')).claims.data).to.deep.equal({ id });
    expect(delivered(receiver, owner.appId, 'screenshot.saved')).to.have.length(2);
    expect(await made(owner.appId)).to.equal(3);
  });
});
