// Events for integrations: the subscription on the app (PATCH /account/apps/{id} `events`), its refusals, and
// the first event end to end: made by its change, delivered signed, verified against GET /api/v1/jwks.
import { expect } from 'chai';
import { config } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import { ensureSigningKeys } from '../../shared/identity/signing-keys.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { startEventReceiver, type EventReceiver } from '../helpers/event-receiver.js';
import { subscribedPerson } from '../helpers/app-event-types.js';
import { useJobWorker } from '../helpers/job-worker.js';
import * as people from '../helpers/people.js';
import { useTestApp } from '../helpers/test-app.js';
import { deliverAppEvents } from '../../shared/events/event-delivery.js';
import { until } from '../helpers/wait.js';

describe('events for integrations: the subscription', function () {
  this.timeout(60000);
  useCleanDatabase();
  useJobWorker(['app-event.deliver']);
  const app = useTestApp();
  let receiver: EventReceiver;

  before(async () => {
    await ensureSigningKeys(db(), config().secret);
    receiver = await startEventReceiver(app.client.baseUrl);
  });
  after(() => receiver.close());

  async function subscribed(username: string, types: string[]) {
    const { appId, token, ...owner } = await subscribedPerson(
      app.client,
      receiver,
      username,
      ['library.read', 'library.write'],
      types,
    );
    return { owner, appId, token };
  }

  it('shows the subscription on the app answers', async () => {
    const { owner, appId } = await subscribed('sub_shown', ['library.entry.saved', 'library.entry.deleted']);
    const one = await owner.site.get(`/api/v1/account/apps/${appId}`);
    expect(one.body.data.events).to.deep.equal({
      url: receiver.url,
      types: ['library.entry.saved', 'library.entry.deleted'],
      state: 'active',
      disabled_reason: null,
      pending: 0,
      failed: 0,
    });
    const all = await owner.site.get('/api/v1/account/apps');
    expect(all.body.data[0].events.state).to.equal('active');
    const off = await owner.site.patch(`/api/v1/account/apps/${appId}`, { events: null });
    expect(off.body.data.events).to.equal(null);
  });

  it('refuses a bad URL, unknown and unheld types, and other people’s apps', async () => {
    const { owner, appId } = await subscribed('sub_refused', ['library.entry.saved']);
    const patch = (events: unknown) => owner.site.patch(`/api/v1/account/apps/${appId}`, { events });
    const http = await patch({ url: 'http://example.com/events', types: ['library.entry.saved'] });
    expect([http.status, http.body.error.reason, http.body.error.field]).to.deep.equal([
      400,
      'url_invalid',
      'events.url',
    ]);
    const port = await patch({ url: 'https://example.com:8443/events', types: ['library.entry.saved'] });
    expect([port.status, port.body.error.field]).to.deep.equal([400, 'events.url']);
    const query = await patch({ url: 'https://example.com/events?x=1', types: ['library.entry.saved'] });
    expect([query.status, query.body.error.field]).to.deep.equal([400, 'events.url']);
    const literal = await patch({ url: 'https://127.0.0.1/events', types: ['library.entry.saved'] });
    expect([literal.status, literal.body.error.reason]).to.deep.equal([400, 'url_denied']);
    const unknown = await patch({ url: receiver.url, types: ['library.entry.burned'] });
    expect(unknown.status).to.equal(400);
    const none = await patch({ url: receiver.url, types: [] });
    expect(none.status).to.equal(400);
    const twice = await patch({ url: receiver.url, types: ['ping', 'ping'] });
    expect(twice.status).to.equal(400);
    const missing = await patch({ url: receiver.url });
    expect(missing.status).to.equal(400);
    const extra = await patch({ url: receiver.url, types: ['ping'], secret: 'x' });
    expect(extra.status).to.equal(400);
    for (const wrong of ['https://example.com/events', [receiver.url], { url: 7, types: ['ping'] }]) {
      expect((await patch(wrong)).status, JSON.stringify(wrong)).to.equal(400);
    }
    const long = await patch({ url: `https://example.com/${'a'.repeat(600)}`, types: ['ping'] });
    expect(long.status).to.equal(400);
    // Nothing refused was saved.
    expect((await owner.site.get(`/api/v1/account/apps/${appId}`)).body.data.events.types).to.deep.equal([
      'library.entry.saved',
    ]);
    const unheld = await patch({ url: receiver.url, types: ['library.entry.saved', 'review.saved'] });
    expect([unheld.status, unheld.body.error.reason, unheld.body.error.field]).to.deep.equal([
      400,
      'fields_invalid',
      'events.types.1',
    ]);
    // Granted in the same PATCH: judged by the scopes the PATCH leaves.
    const granted = await owner.site.patch(`/api/v1/account/apps/${appId}`, {
      scopes: ['library.read', 'reviews.read'],
      events: { url: receiver.url, types: ['library.entry.saved', 'review.saved'] },
    });
    expect(granted.status, granted.text).to.equal(200);
    const stranger = await people.namedPerson(app.client, 'sub_stranger');
    const theirs = await stranger.site.patch(`/api/v1/account/apps/${appId}`, {
      events: { url: receiver.url, types: ['ping'] },
    });
    expect([theirs.status, theirs.body.error.reason]).to.deep.equal([404, 'app_not_found']);
  });

  it('delivers a saved entry, signed, with the read route’s answer as data', async () => {
    const { owner, appId, token } = await subscribed('sub_entry', ['library.entry.saved', 'library.entry.deleted']);
    const game = await people.catalogGame({ name: 'Celeste', platform_ids: [6] });
    // Written by a key: the event is made whoever writes.
    const put = await app.client.put(
      `/api/v1/library/${game.id}`,
      { status: 'PLAYING' },
      { headers: { authorization: `Bearer ${token}` } },
    );
    expect(put.status, put.text).to.be.oneOf([200, 201]);
    await until(async () => receiver.of('library.entry.saved').some((event) => event.claims.aud === appId));
    const [event] = receiver.of('library.entry.saved').filter((e) => e.claims.aud === appId);
    const read = await owner.site.get(`/api/v1/library/${game.id}`);
    expect(event.claims.data).to.deep.equal(read.body.data);
    expect(event.claims.sub).to.equal(owner.account.id);
    expect(event.typ).to.equal('event+jwt');
    expect(event.headers.id).to.equal(event.claims.jti);
    expect(Math.abs(Number(event.headers.timestamp) - Date.now() / 1000)).to.be.below(60);
    expect(event.headers.contentType).to.equal('application/jwt');
    expect(event.claims.seq).to.be.a('number');
    // The same PUT again changes nothing, and makes no event.
    await app.client.put(
      `/api/v1/library/${game.id}`,
      { status: 'PLAYING' },
      { headers: { authorization: `Bearer ${token}` } },
    );
    await owner.site.delete(`/api/v1/library/${game.id}`);
    await until(async () => receiver.of('library.entry.deleted').some((e) => e.claims.aud === appId));
    const saved = receiver.of('library.entry.saved').filter((e) => e.claims.aud === appId);
    expect(saved).to.have.length(1);
    const [deleted] = receiver.of('library.entry.deleted').filter((e) => e.claims.aud === appId);
    expect(deleted.claims.data).to.deep.equal({
      game_id: game.id,
      entry_id: (deleted.claims.data as { entry_id: string }).entry_id,
    });
    expect(deleted.claims.seq).to.be.above(event.claims.seq);
    // The receiver answers before the attempt's end is written.
    const statuses = async () =>
      (await db()('app_events').where({ app_id: appId }).orderBy('seq')).map((r) => r.status);
    await until(async () => (await statuses()).every((status) => status === 'delivered'));
    expect(await statuses()).to.deep.equal(['delivered', 'delivered']);
  });

  it('deletes an app’s subscription, events and attempts with the app', async () => {
    const { owner, appId, token } = await subscribed('sub_gone', ['library.entry.saved']);
    const game = await people.catalogGame({ platform_ids: [6] });
    await app.client.put(
      `/api/v1/library/${game.id}`,
      { status: 'PLAYING' },
      { headers: { authorization: `Bearer ${token}` } },
    );
    await until(async () => (await db()('app_events').where({ app_id: appId, status: 'delivered' })).length === 1);
    const [event] = await db()('app_events').where({ app_id: appId });
    expect(await db()('app_event_attempts').where({ event_id: event.id })).to.have.length(1);
    const gone = await owner.site.delete(`/api/v1/account/apps/${appId}`);
    expect(gone.status).to.equal(200);
    expect(await db()('app_events').where({ app_id: appId })).to.deep.equal([]);
    expect(await db()('app_event_attempts').where({ event_id: event.id })).to.deep.equal([]);
    expect(await db()('app_event_subscriptions').where({ app_id: appId })).to.deep.equal([]);
  });

  it('writes the end of an attempt whose event was deleted in the air without failing the others', async () => {
    const { appId } = await subscribed('sub_in_air', ['library.entry.saved']);
    const owner = (await db()('app_event_subscriptions').where({ app_id: appId }).first()).account_id as string;
    // Queued already, so only this test's own delivery sends it; the receiver holds its answer.
    const [event] = await db()('app_events')
      .insert({ app_id: appId, account_id: owner, type: 'ping', subject: 'in-air', data: '{}', queued: true })
      .returning('id');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const came = new Promise<void>((resolve) => (arrived = resolve));
    receiver.host.routes['/events'] = (_request, response) => {
      arrived();
      void held.then(() => response.writeHead(204).end());
    };
    try {
      const delivering = deliverAppEvents(
        db(),
        [event.id],
        { secret: config().secret, issuer: config().publicUrl },
        (k) => k,
      );
      await came;
      await db()('app_events').where({ id: event.id }).delete();
      release();
      const outcomes = await delivering;
      expect(outcomes.get(event.id)).to.equal('delivered');
      expect(await db()('app_event_attempts').where({ event_id: event.id })).to.deep.equal([]);
    } finally {
      await receiver.close();
      receiver = await startEventReceiver(app.client.baseUrl);
    }
  });
});
