// The catalogue of events for integrations (DECISIONS: Events for integrations): what an app may subscribe
// to, and the scope it must hold for each. The database's triggers (migration app_events) name the same
// types; a test holds the two lists equal.
import type { Scope } from '../keys/scopes.js';

export const EVENT_TYPE_SCOPES = {
  'library.entry.saved': 'library.read',
  'library.entry.deleted': 'library.read',
  'journal.session.closed': 'journal.read',
  'journal.journey.saved': 'journal.read',
  'review.saved': 'reviews.read',
  'review.deleted': 'reviews.read',
  'list.saved': 'lists.read',
  'list.deleted': 'lists.read',
  'screenshot.saved': 'screenshots.read',
  'screenshot.deleted': 'screenshots.read',
  'notification.created': 'notifications.read',
  'profile.updated': 'profile.read',
  // Sent on request (POST /account/apps/{id}/events/ping): any app with a subscription may ask for one.
  ping: null,
} as const satisfies Record<string, Scope | null>;

export type EventType = keyof typeof EVENT_TYPE_SCOPES;

export const EVENT_TYPES = Object.keys(EVENT_TYPE_SCOPES) as EventType[];

/** The scope an app must hold to be sent `type` (null: none). */
export function scopeOfType(type: EventType): Scope | null {
  return EVENT_TYPE_SCOPES[type];
}

/** Whether an app holding `scopes` may be sent events of `type`. */
export function mayReceive(type: EventType, scopes: readonly string[]): boolean {
  const scope = scopeOfType(type);
  return scope === null || scopes.includes(scope);
}

/** The `deleted` types carry the ids only; every other type the object the owner's read route answers. */
export function isDeletion(type: EventType): boolean {
  return type.endsWith('.deleted');
}
