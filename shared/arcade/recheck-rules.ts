// The rules of the service's own watch over live games (spec: App Arcade record `notice`, hidden for
// `invariant` or `provider_change`), as functions of their inputs: when a game's live release is checked
// next, and what one check of it does to the game. rechecks.ts loads the facts and applies the answers.
import { createHash } from 'node:crypto';

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

/** A failed check, or a pass of a game hidden for `invariant`, is confirmed by another this soon. */
export const CONFIRM_AFTER_MS = HOUR_MS;
/** The daily check comes at the game's own time of day, at least this long after the latest check. */
export const MIN_GAP_MS = 12 * HOUR_MS;
/** A game hidden for `invariant` is checked hourly this long after it was hidden, then daily. */
export const HOURLY_WHILE_HIDDEN_MS = DAY_MS;

export interface GameState {
  status: string;
  notice_kind: string | null;
  notice_reason: string | null;
}

/**
 * Which games the service watches: `open` (listed, no notice: players can open it) may be hidden;
 * `invariant` (hidden because checks failed) may come back or be hidden for a provider change instead.
 * Nothing else is the service's to change: moderation's and reports' notices wait for a moderator.
 */
export function watchOf(game: GameState): 'open' | 'invariant' | null {
  if (game.status === 'listed' && game.notice_kind === null) return 'open';
  if (game.status === 'hidden' && game.notice_kind === 'hidden' && game.notice_reason === 'invariant') {
    return 'invariant';
  }
  return null;
}

/** Seconds after midnight UTC at which the game's daily check falls: stable per game, spread over the day. */
export function slotOffsetSeconds(appId: string): number {
  return createHash('sha256').update(appId).digest().readUInt32BE(0) % (DAY_MS / 1000);
}

/** The first instant at or after `notBefore` that is the game's time of day. */
export function nextSlot(appId: string, notBefore: Date): Date {
  const from = notBefore.getTime();
  const at = Math.floor(from / DAY_MS) * DAY_MS + slotOffsetSeconds(appId) * 1000;
  return new Date(at < from ? at + DAY_MS : at);
}

/**
 * When the game's live release is checked next, after a check at `now` that `passed`. `hiddenAt` is the
 * time of the `invariant` notice when the game is (still) hidden for it. A failure is confirmed within the
 * hour (two in a row hide), as is a pass while hidden (two in a row bring it back); a game hidden for a
 * day without passing drops to the daily check, so a host that is gone is not asked every hour forever.
 */
export function nextRecheckAt(appId: string, now: Date, passed: boolean, hiddenAt: Date | null): Date {
  const soon = new Date(now.getTime() + CONFIRM_AFTER_MS);
  if (hiddenAt !== null) {
    if (passed || now.getTime() - hiddenAt.getTime() < HOURLY_WHILE_HIDDEN_MS) return soon;
  } else if (!passed) {
    return soon;
  }
  return nextSlot(appId, new Date(now.getTime() + MIN_GAP_MS));
}

/** The provider a check saw, or null when the entry never answered (nothing was observed). */
export function observedProvider(check: { status_code?: unknown; provider?: unknown }): string | null {
  if (check.status_code === null || check.status_code === undefined) return null;
  return typeof check.provider === 'string' ? check.provider : null;
}

export interface CheckFacts {
  /** `passed` of the checks of the live release that count, newest (this one) first: two are enough. */
  recent: boolean[];
  /** What this check saw (observedProvider), and the provider the live release is pinned to. */
  provider: string | null;
  pinned: string | null;
  /** The game's hiding was a moderator's (their latest action on it is a hide): never lifted here. */
  moderatorHid: boolean;
}

export type Move = { kind: 'hide'; reason: 'invariant' | 'provider_change' } | { kind: 'restore' } | null;

/**
 * What one check of the live release does to its game: another hosting provider than the pinned one hides
 * it for `provider_change` (also a game hidden for `invariant`, which two passes must no longer bring back);
 * two failures in a row hide an open game for `invariant`; two passes in a row bring it back.
 */
export function moveAfterCheck(game: GameState, facts: CheckFacts): Move {
  const watch = watchOf(game);
  if (watch === null || (watch === 'invariant' && facts.moderatorHid)) return null;
  if (facts.provider !== null && facts.pinned !== null && facts.provider !== facts.pinned) {
    return { kind: 'hide', reason: 'provider_change' };
  }
  const [latest, before] = facts.recent;
  if (facts.recent.length < 2) return null;
  if (watch === 'open' && !latest && !before) return { kind: 'hide', reason: 'invariant' };
  if (watch === 'invariant' && latest && before) return { kind: 'restore' };
  return null;
}
