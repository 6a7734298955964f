// Events for integrations, the owner as a person (DECISIONS: Events for integrations): notification.created
// as GET /notifications shows each (a follow, a comment, a like, a like collapsed into it), profile.updated
// as GET /profile answers; and whose events are made: only the owner's subscribed apps, none for a type not
// subscribed or while disabled, and none (the waiting ones failed, scope_removed) once a scope is removed.
import { expect } from 'chai';
import { ensureSigningKeys } from '../../shared/identity/signing-keys.js';
import { config } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import { delivered, made, nth, subscribedPerson } from '../helpers/app-event-types.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import { startEventReceiver, type EventReceiver } from '../helpers/event-receiver.js';
import { useJobWorker } from '../helpers/job-worker.js';
import { everyTypeLayout } from '../helpers/layouts.js';
import * as people from '../helpers/people.js';
import { useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

describe('events for integrations: the owner as a person, and whose events are made', function () {
  this.timeout(60000);
  useCleanDatabase();
  const app = useTestApp();
  useJobWorker(['app-event.deliver']);
  let receiver: EventReceiver;
  let game: people.CatalogGame;

  before(async () => {
    await ensureSigningKeys(db(), config().secret);
    receiver = await startEventReceiver(app.client.baseUrl);
    game = await people.catalogGame({ name: 'Outer Wilds', platform_ids: [6] });
  });
  after(() => receiver.close());

  const ok = (res: { status: number; text: string }, status = 200) => expect(res.status, res.text).to.equal(status);

  it('notification.created: a follow, a comment and a like as GET /notifications shows them; a second like collapsed into the first is sent again', async () => {
    const owner = await subscribedPerson(
      app.client,
      receiver,
      'ev_told',
      ['notifications.read', 'reviews.write'],
      ['notification.created'],
    );
    const [fan, other] = [
      await people.namedPerson(app.client, 'ev_fan'),
      await people.namedPerson(app.client, 'ev_other'),
    ];
    const review = (await owner.site.post('/api/v1/reviews', { game_id: game.id, body: 'Supernova.' })).body.data;
    const shown = async (id: string) =>
      ((await owner.site.get('/api/v1/notifications')).body.data as Array<{ id: string }>).filter((n) => n.id === id);
    const check = async (count: number) => {
      const event = await nth(receiver, owner, 'notification.created', count);
      const id = (event.claims.data as { id: string }).id;
      expect([event.claims.data]).to.deep.equal(await shown(id));
      return event.claims.data as { id: string; kind: string; data: unknown };
    };

    ok(await fan.site.put('/api/v1/social/following/ev_told'));
    expect((await check(1)).kind).to.equal('follow');
    ok(await fan.site.post('/api/v1/comments', { on: 'REVIEW', id: review.id, body: 'So true.' }), 201);
    expect((await check(2)).kind).to.equal('comment');
    ok(await fan.site.put(`/api/v1/likes/review/${review.id}`));
    const liked = await check(3);
    expect([liked.kind, liked.data]).to.deep.equal(['like', { count: 1 }]);
    // A like again by the same person changes nothing; another's collapses into the first, shown anew.
    ok(await fan.site.put(`/api/v1/likes/review/${review.id}`));
    expect(await made(owner.appId)).to.equal(3);
    ok(await other.site.put(`/api/v1/likes/review/${review.id}`));
    const collapsed = await check(4);
    expect([collapsed.id, collapsed.data]).to.deep.equal([liked.id, { count: 2 }]);
    expect((await owner.site.get('/api/v1/notifications')).body.data).to.have.length(3);
    // Marking them read is not a new notification; the fan's own notifications are not the owner's.
    ok(await owner.site.post('/api/v1/notifications/read', { all: true }));
    expect(await made(owner.appId)).to.equal(4);
  });

  it('profile.updated: GET /profile after each change of its fields, names, settings and published layout; the same values make none', async () => {
    const owner = await subscribedPerson(
      app.client,
      receiver,
      'ev_profile',
      ['profile.read', 'profile.write'],
      ['profile.updated'],
    );
    const read = async () => (await owner.site.get('/api/v1/profile')).body.data;
    // The first write of a profile creates its row.
    ok(await owner.site.patch('/api/v1/profile', { bio: 'Astronaut.', pronouns: 'she/her' }));
    expect((await nth(receiver, owner, 'profile.updated')).claims.data).to.deep.equal(await read());
    ok(await owner.site.patch('/api/v1/profile', { bio: 'Astronaut.', pronouns: 'she/her' }));
    expect(await made(owner.appId)).to.equal(1);
    // No display name is shown as '': setting '' shows nothing new.
    ok(await owner.site.patch('/api/v1/profile', { display_name: '' }));
    expect(await made(owner.appId)).to.equal(1);
    ok(await owner.site.patch('/api/v1/profile', { display_name: 'Hearthian' }));
    expect((await nth(receiver, owner, 'profile.updated', 2)).claims.data).to.deep.equal(await read());
    ok(await owner.site.patch('/api/v1/profile', { display_name: 'Hearthian', bio: 'Astronaut.' }));
    expect(await made(owner.appId)).to.equal(2);
    ok(await owner.site.patch('/api/v1/profile', { record_history: false }));
    expect((await nth(receiver, owner, 'profile.updated', 3)).claims.data).to.deep.equal(await read());
    ok(await owner.site.patch('/api/v1/profile', { library_visibility: 'FOLLOWERS' }));
    expect((await nth(receiver, owner, 'profile.updated', 4)).claims.data).to.deep.equal(await read());
    // A layout's draft is not shown; publishing it is.
    ok(await owner.site.put('/api/v1/profile/layout', { layout: everyTypeLayout(), version: 0 }));
    expect(await made(owner.appId)).to.equal(4);
    ok(await owner.site.post('/api/v1/profile/layout/publish', { version: 1 }));
    expect((await nth(receiver, owner, 'profile.updated', 5)).claims.data).to.deep.equal(await read());
    ok(await owner.site.post('/api/v1/profile/layout/publish', { version: 1 }));
    expect(await made(owner.appId)).to.equal(5);
    // A new username is shown by GET /profile too.
    ok(await owner.site.patch('/api/v1/account/username', { username: 'ev_profile_2' }));
    const renamed = (await nth(receiver, owner, 'profile.updated', 6)).claims.data as { username: string };
    expect([renamed, renamed.username]).to.deep.equal([await read(), 'ev_profile_2']);
    expect(await made(owner.appId)).to.equal(6);
  });

  it('makes events only for the owner’s apps subscribed to the type, and none while the subscription is disabled', async () => {
    const owner = await subscribedPerson(
      app.client,
      receiver,
      'ev_whose',
      ['library.read', 'library.write'],
      ['library.entry.saved'],
    );
    const deletesOnly = await subscribedPerson(
      app.client,
      receiver,
      'ev_deletes',
      ['library.read'],
      ['library.entry.deleted'],
    );
    const stranger = await subscribedPerson(
      app.client,
      receiver,
      'ev_stranger',
      ['library.read'],
      ['library.entry.saved'],
    );
    // The owner's second app subscribed to the type gets its own event of the same change.
    const second = await appWithKey(owner.account.id, ['library.read']);
    const events = { url: receiver.url, types: ['library.entry.saved'] };
    ok(await owner.site.patch(`/api/v1/account/apps/${second.app.id}`, { events }));
    ok(await owner.site.put(`/api/v1/library/${game.id}`, { status: 'PLAYING' }), 201);
    const [first, other] = [
      await nth(receiver, owner, 'library.entry.saved'),
      await nth(receiver, { ...owner, appId: second.app.id }, 'library.entry.saved'),
    ];
    expect(other.claims.jti).to.not.equal(first.claims.jti);
    expect(other.claims.data).to.deep.equal(first.claims.data);
    ok(await deletesOnly.site.put(`/api/v1/library/${game.id}`, { status: 'PLAYING' }), 201);
    expect(await made(stranger.appId)).to.equal(0);
    expect(await made(deletesOnly.appId)).to.equal(0);

    // A 410 disables it: nothing is made until `events` is set again.
    const gone = await startEventReceiver(app.client.baseUrl);
    try {
      gone.status = 410;
      const patch = (url: string) =>
        owner.site.patch(`/api/v1/account/apps/${owner.appId}`, { events: { url, types: ['library.entry.saved'] } });
      ok(await patch(gone.url));
      ok(await owner.site.put(`/api/v1/library/${game.id}`, { status: 'COMPLETED' }));
      await until(
        async () => (await db()('app_event_subscriptions').where({ app_id: owner.appId }).first()).state === 'disabled',
      );
      expect(delivered(gone, owner.appId, 'library.entry.saved')).to.have.length(1);
      const before = await made(owner.appId);
      ok(await owner.site.put(`/api/v1/library/${game.id}`, { status: 'DROPPED' }));
      expect(await made(owner.appId)).to.equal(before);
      ok(await patch(receiver.url));
      ok(await owner.site.put(`/api/v1/library/${game.id}`, { status: 'ON_HOLD' }));
      const back = await nth(receiver, owner, 'library.entry.saved', 2);
      expect(back.claims.data).to.deep.equal((await owner.site.get(`/api/v1/library/${game.id}`)).body.data);
    } finally {
      await gone.close();
    }
  });

  it('stops a scope’s types at once when the app loses it: waiting events fail scope_removed, and none are made', async () => {
    const failing = await startEventReceiver(app.client.baseUrl);
    try {
      failing.status = 500;
      const owner = await subscribedPerson(
        app.client,
        failing,
        'ev_scoped',
        ['library.read', 'library.write', 'reviews.read', 'reviews.write'],
        ['library.entry.saved', 'review.saved'],
      );
      ok(await owner.site.put(`/api/v1/library/${game.id}`, { status: 'PLAYING' }), 201);
      ok(await owner.site.post('/api/v1/reviews', { game_id: game.id, body: 'Hold this.' }), 201);
      // Both tried once and refused: they wait for the 5 s retry.
      const events = () => db()('app_events').where({ app_id: owner.appId }).orderBy('seq');
      await until(async () => (await events()).every((event) => event.attempts === 1 && event.leased_until === null));
      ok(
        await owner.site.patch(`/api/v1/account/apps/${owner.appId}`, {
          scopes: ['library.write', 'reviews.read', 'reviews.write'],
        }),
      );
      const [entry, review] = await events();
      expect([entry.type, entry.status, entry.last_error]).to.deep.equal([
        'library.entry.saved',
        'failed',
        'scope_removed',
      ]);
      expect([review.type, review.status]).to.deep.equal(['review.saved', 'pending']);
      ok(await owner.site.put(`/api/v1/library/${game.id}`, { status: 'COMPLETED' }));
      expect(await made(owner.appId, 'library.entry.saved')).to.equal(1);
      // The review's retry goes out (the receiver keeps each attempt it verified); the entry's does not.
      failing.status = 204;
      await until(async () => delivered(failing, owner.appId, 'review.saved').length === 2);
      expect(delivered(failing, owner.appId, 'library.entry.saved')).to.have.length(1);
      // The receiver answers before the attempt's end is written.
      await until(async () => (await events())[1].status === 'delivered');
      expect((await events()).map((event) => event.status)).to.deep.equal(['failed', 'delivered']);
      expect(failing.refused).to.equal(0);
    } finally {
      await failing.close();
    }
  });
});
