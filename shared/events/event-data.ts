// The `data` of an event for integrations: the object the owner's own read route answers for the thing the
// event names (DECISIONS: Events for integrations), read through that route's own loader and presenter, so
// the two never differ. It is rendered at the event's first attempt and kept for every later one; a thing
// gone by then is sent with its ids only, as its `deleted` event is.
import type { Knex } from 'knex';
import { Account } from '../accounts/account.js';
import { presentEntry } from '../library/presenters.js';
import { entriesByGame } from '../library/own-library.js';
import { ownSession, sessionsAsShown } from '../journal/session-reads.js';
import { AUTHOR_SEES, journeysAsShown, ownJourney } from '../journal/journey-reads.js';
import { findOwnReview } from '../reviews/load-review.js';
import { presentReview } from '../reviews/presenters.js';
import { findList, withItems } from '../lists/load-list.js';
import { presentList } from '../lists/presenters.js';
import { findOwnCapture } from '../screenshots/load-capture.js';
import { presentCapture } from '../screenshots/presenters.js';
import { shownNotification } from '../notifications/load-notifications.js';
import { presentNotification } from '../notifications/presenters.js';
import { readOwnProfile } from '../profiles/profile.js';
import { isUuid } from '../platform/validation/uuid.js';
import type { EventType } from './event-types.js';

type MediaUrl = (key: string) => string;

/** Renders a thing as its read route answers it to `ownerId`, or null when it is gone. */
type Renderer = (knex: Knex, ownerId: string, subject: string, mediaUrl: MediaUrl) => Promise<unknown>;

/** A read that answers 404 for a thing gone is null here. */
async function orNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if ((error as { status?: number }).status === 404) return null;
    throw error;
  }
}

const RENDERERS: Partial<Record<EventType, Renderer>> = {
  // library.entry.saved: renderEventsData reads a batch's entries in one statement (entriesByGame).
  'journal.session.closed': async (knex, ownerId, subject) => {
    const row = await orNull(ownSession(knex, ownerId, subject));
    return row && (await sessionsAsShown(knex, [row]))[0];
  },
  'journal.journey.saved': async (knex, ownerId, subject) => {
    const row = await orNull(ownJourney(knex, ownerId, subject));
    return row && (await journeysAsShown(knex, [row], AUTHOR_SEES))[0];
  },
  'review.saved': async (knex, ownerId, subject) => {
    const review = await findOwnReview(knex, ownerId, subject);
    return review && presentReview(review);
  },
  'list.saved': async (knex, ownerId, subject) => {
    const found = await findList(knex, subject, ownerId);
    if (!found || found.list.account_id !== ownerId) return null;
    return presentList(await withItems(knex, found.list), true);
  },
  'screenshot.saved': async (knex, ownerId, subject, mediaUrl) => {
    const capture = await findOwnCapture(knex, ownerId, subject);
    return capture && presentCapture(capture, mediaUrl);
  },
  'notification.created': async (knex, ownerId, subject, mediaUrl) => {
    const row = isUuid(subject) ? await shownNotification(knex, ownerId, subject) : null;
    return row && presentNotification(row, mediaUrl);
  },
  'profile.updated': async (knex, ownerId, _subject, mediaUrl) => {
    const account = await Account.query(knex).findById(ownerId);
    return account ? readOwnProfile(knex, account, mediaUrl) : null;
  },
};

/** The ids a thing gone before its event was first sent is sent with (its `deleted` event's data). */
function idsOnly(type: EventType, subject: string): Record<string, unknown> {
  if (type === 'library.entry.saved') return { game_id: Number(subject) };
  if (type === 'profile.updated') return { account_id: subject };
  return { id: subject };
}

/** An event's data (not a library entry's): its read route's answer now, or its ids when the thing is gone. */
async function renderEventData(
  knex: Knex,
  event: { type: EventType; account_id: string; subject: string },
  mediaUrl: MediaUrl,
): Promise<unknown> {
  const render = RENDERERS[event.type];
  if (!render) return {};
  return (await render(knex, event.account_id, event.subject, mediaUrl)) ?? idsOnly(event.type, event.subject);
}

/**
 * The data of several events: library entries, the most frequent, in one statement for the batch (a
 * backlog's events are rendered a claim at a time); the other types one by one, side by side.
 */
export async function renderEventsData(
  knex: Knex,
  events: Array<{ type: EventType; account_id: string; subject: string }>,
  mediaUrl: MediaUrl,
): Promise<unknown[]> {
  const entries = events.filter((event) => event.type === 'library.entry.saved' && /^\d+$/.test(event.subject));
  const found = await entriesByGame(
    knex,
    entries.map((event) => ({ accountId: event.account_id, gameId: Number(event.subject) })),
  );
  return Promise.all(
    events.map(async (event) => {
      if (event.type !== 'library.entry.saved') return renderEventData(knex, event, mediaUrl);
      const entry = found.get(`${event.account_id}:${event.subject}`);
      return entry ? presentEntry(entry) : idsOnly(event.type, event.subject);
    }),
  );
}
