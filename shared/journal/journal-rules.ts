// The journal's time rules (DECISIONS: Journal, Shared rules), pure: what a session's minutes are, and the
// times a session or a journey may hold. Each refusal is 400 `fields_invalid` naming the field. A PATCH is
// judged on the merged result, so a rule broken by a field that was not sent (a new start after a stored
// end) names the field that was sent: `blame` says which of the pair that is.
import { fieldsInvalid, refuseEndBeforeStart, refuseFuture } from '../content/content-rules.js';

/** A session lasts at most 24 hours. */
export const SESSION_MAX_MS = 24 * 3600_000;

type At = string | Date;
const iso = (at: At) => (typeof at === 'string' ? at : at.toISOString());
const ms = (at: At) => (typeof at === 'string' ? Date.parse(at) : at.getTime());

/** Whole minutes between start and end, rounded down; null while the session runs. */
export function sessionMinutes(startedAt: At, endedAt: At | null): number | null {
  if (endedAt === null) return null;
  return Math.floor((ms(endedAt) - ms(startedAt)) / 60_000);
}

export interface SessionTimes {
  started_at: At;
  /** Null: a live session. */
  ended_at: At | null;
}

/**
 * Refuses a start or end more than 5 minutes ahead, an end before the start, and a session longer than 24
 * hours. A live session has no length yet: the 24 hours hold when it is closed.
 */
export function refuseSessionTimes(
  times: SessionTimes,
  blame: 'started_at' | 'ended_at' = 'ended_at',
  now = Date.now(),
): void {
  refuseFuture('started_at', iso(times.started_at), now);
  if (times.ended_at === null) return;
  refuseFuture('ended_at', iso(times.ended_at), now);
  if (blame === 'started_at' && ms(times.ended_at) < ms(times.started_at)) {
    throw fieldsInvalid('started_at', 'started_at is after the session’s end.');
  }
  refuseEndBeforeStart('ended_at', iso(times.started_at), iso(times.ended_at));
  if (ms(times.ended_at) - ms(times.started_at) > SESSION_MAX_MS) {
    throw fieldsInvalid(blame, 'A session lasts at most 24 hours.');
  }
}

export interface JourneyTimes {
  started_at: At | null;
  /** Null: the run goes on. */
  finished_at: At | null;
}

/** Refuses a start or finish more than 5 minutes ahead, and a finish before the start. */
export function refuseJourneyTimes(
  times: JourneyTimes,
  blame: 'started_at' | 'finished_at' = 'finished_at',
  now = Date.now(),
): void {
  if (times.started_at !== null) refuseFuture('started_at', iso(times.started_at), now);
  if (times.finished_at === null) return;
  refuseFuture('finished_at', iso(times.finished_at), now);
  if (times.started_at === null) return;
  if (blame === 'started_at' && ms(times.finished_at) < ms(times.started_at)) {
    throw fieldsInvalid('started_at', 'started_at is after the journey’s finish.');
  }
  refuseEndBeforeStart('finished_at', iso(times.started_at), iso(times.finished_at));
}
