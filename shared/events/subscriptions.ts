// An app's subscription to events for integrations (DECISIONS: Events for integrations): set with the app's
// other fields by PATCH /account/apps/{id} `events` {url, types} (null turns it off), shown on every app
// answer. The URL follows a release's data_events_url rules (https, port 443, no query or fragment, a public
// name) and must resolve, through the outbound guard, to public addresses only. Each type needs the scope
// the catalogue names, held by the app as the PATCH leaves it. Setting `events` again re-enables a disabled
// subscription, and the events that waited for it are sent.
import type { Knex } from 'knex';
import { checkGameUrl, type UrlRuleSettings } from '../arcade/url-rules.js';
import { findOwnApp, type AppChanges } from '../keys/apps.js';
import type { App } from '../keys/models.js';
import { invalidRequest } from '../platform/errors.js';
import { checkHost } from '../platform/net/checked-host.js';
import { isOutboundRefused } from '../platform/net/outbound-refused.js';
import { APP_EVENTS_CHANNEL, failOutOfScope } from './event-delivery.js';
import { mayReceive, type EventType } from './event-types.js';
import { AppEvent, AppEventSubscription } from './models.js';

export interface EventsInput {
  url: string;
  types: EventType[];
}

export interface EventsMember {
  url: string;
  types: EventType[];
  state: 'active' | 'disabled';
  disabled_reason: 'gone' | 'failing' | null;
  pending: number;
  failed: number;
}

/** The `events` member of several apps' answers, in one statement; apps without a subscription are absent. */
export async function eventSummaries(knex: Knex, appIds: string[]): Promise<Map<string, EventsMember>> {
  const found = new Map<string, EventsMember>();
  if (appIds.length === 0) return found;
  const { rows } = await knex.raw<{ rows: Array<EventsMember & { app_id: string }> }>(
    `SELECT s.app_id, s.url, s.types, s.state, s.disabled_reason,
       (SELECT count(*) FROM app_events e WHERE e.app_id = s.app_id AND e.status = 'pending')::int AS pending,
       (SELECT count(*) FROM app_events e WHERE e.app_id = s.app_id AND e.status = 'failed')::int AS failed
     FROM app_event_subscriptions s WHERE s.app_id = ANY(CAST(? AS uuid[]))`,
    [appIds as unknown as Knex.Value],
  );
  for (const { app_id, ...member } of rows) found.set(app_id, member);
  return found;
}

/** The URL's rules, then its addresses through the guard: 400 naming `events.url` when refused. */
async function checkEventsUrl(value: string, settings: UrlRuleSettings): Promise<string> {
  const { url } = checkGameUrl(value, 'events.url', settings);
  try {
    await checkHost(new URL(url).hostname, { url });
  } catch (error) {
    if (!isOutboundRefused(error)) throw error;
    throw invalidRequest(`The URL cannot receive events (${error.reason}).`, {
      reason: 'url_denied',
      field: 'events.url',
      detail: error.reason,
    });
  }
  return url;
}

/** 400 `fields_invalid` naming the first type whose scope the app does not hold. */
function refuseUnheldTypes(types: EventType[], scopes: readonly string[]): void {
  const index = types.findIndex((type) => !mayReceive(type, scopes));
  if (index === -1) return;
  throw invalidRequest(`The app does not hold the scope the event type ${types[index]} needs.`, {
    reason: 'fields_invalid',
    field: `events.types.${index}`,
  });
}

/** Sets (or with null removes) the subscription of `app`, whose scopes are as the change leaves them. */
async function setSubscription(trx: Knex.Transaction, app: App, events: EventsInput | null): Promise<void> {
  if (events === null) {
    // Events still owed go with it: there is nowhere to send them.
    await AppEvent.query(trx).where({ app_id: app.id, status: 'pending' }).delete();
    await AppEventSubscription.query(trx).deleteById(app.id);
    return;
  }
  // Set again, it is active again, its failing count started over.
  await AppEventSubscription.query(trx)
    .insert({ app_id: app.id, account_id: app.account_id, url: events.url, types: events.types })
    .onConflict('app_id')
    .merge({
      url: events.url,
      types: events.types,
      state: 'active',
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
      updated_at: trx.fn.now(),
    });
  // Events that waited while it was disabled (their jobs found it so) are queued again at commit.
  const waiting = await AppEvent.query(trx)
    .where({ app_id: app.id, status: 'pending', queued: true })
    .where((q) => q.whereNull('leased_until').orWhere('leased_until', '<', trx.fn.now()))
    .patch({ queued: false });
  if (waiting > 0) await trx.raw('SELECT pg_notify(?, ?)', [APP_EVENTS_CHANNEL, '']);
}

export type AppPatch = AppChanges & { events?: EventsInput | null };

/**
 * PATCH /account/apps/{id}: the app's fields and its subscription in one transaction. Scopes removed fail
 * the pending events of the types they gated (`scope_removed`); new types are judged by the new scopes.
 */
export async function updateAppAndEvents(
  knex: Knex,
  accountId: string,
  appId: string,
  patch: AppPatch,
  settings: UrlRuleSettings,
): Promise<App> {
  const { events, ...changes } = patch;
  const url = events ? await checkEventsUrl(events.url, settings) : null;
  return knex.transaction(async (trx) => {
    let app = await findOwnApp(trx, accountId, appId);
    if (Object.keys(changes).length > 0) app = await app.$query(trx).patchAndFetch(changes);
    if (changes.scopes) await failOutOfScope(trx, app.id);
    if (events !== undefined) {
      if (events) refuseUnheldTypes(events.types, app.scopes);
      await setSubscription(trx, app, events && { url: url!, types: events.types });
    }
    return app;
  });
}
