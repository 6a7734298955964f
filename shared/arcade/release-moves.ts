// Submitting a release and making it live (spec: States and transitions; POST .../submit, .../live). Both
// run a fresh check in the worker first; what needs no fetch (state, approval age, rollback distance) is
// refused before it, so a refusal never spends a check.
import type { Knex } from 'knex';
import { fn } from 'objection';
import { conflict } from '../platform/errors.js';
import type { JobReplies } from '../platform/jobs/request-reply.js';
import { checkNow } from './checks.js';
import { releaseHeldEvents } from './data-events.js';
import { lockOpenGame, recordEvent } from './games.js';
import { refuseBlockedHost } from './host-rules.js';
import { pinLiveRelease } from './rechecks.js';
import { findRelease, releaseLocked } from './releases.js';
import { emailDeveloper } from './review.js';
import { limiterFor } from '../platform/rate-limits/attempt-limiter.js';
import { type ArcadeApp, APPROVAL_MAX_AGE_MS, type CheckRow, type ReleaseRow } from './rows.js';
import { ArcadeClaim, ArcadeGame, ArcadeRelease } from './models.js';

export interface MoveServices {
  knex: Knex;
  replies: JobReplies;
  /** Where domain registrations are looked up (config `arcade.rdapBaseUrl`); null: no lookup. */
  rdapBaseUrl: string | null;
}

/** Spec Limits: release submissions, 5 per app per day. */
const RELEASE_SUBMITS = {
  name: 'arcade-release-submit',
  failures: 5,
  windowSeconds: 24 * 3600,
  reason: 'rate_limited',
};

function checkFailed(check: CheckRow) {
  return conflict('check_failed', { detail: check.result }, 'The check did not pass: see detail.');
}

export async function submitRelease(services: MoveServices, game: ArcadeApp, releaseId: string) {
  const { knex } = services;
  const release = await findRelease(knex, game.app_id, releaseId);
  if (release.status !== 'draft') throw releaseLocked();
  // Only a submission that is made spends one of the day's 5: the use is taken before the check, so
  // parallel submits cannot all pass with one left, and every refusal gives it back.
  return limiterFor(knex, RELEASE_SUBMITS).within([game.app_id], () => checkAndSubmit(services, game, release));
}

async function checkAndSubmit(services: MoveServices, game: ArcadeApp, release: ReleaseRow) {
  const { knex } = services;
  await refuseBlockedHost(knex, release, services.rdapBaseUrl);
  const check = await checkNow(knex, services.replies, game.app_id, release.id, 'submit');
  if (!check.passed) throw checkFailed(check);
  const submitted = await knex.transaction(async (trx) => {
    // Removed while the check ran: no origin is claimed for a removed game.
    await lockOpenGame(trx, game.app_id);
    const current = await findRelease(trx, game.app_id, release.id, true);
    if (current.status !== 'draft') throw releaseLocked();
    // The origin is the app's from now on, and never another app's: the claim is permanent. Claimed first
    // and read after, so two submissions at once (of this app or another) wait for each other and the
    // loser is told origin_in_use, not a key violation.
    await ArcadeClaim.query(trx)
      .insert({ kind: 'origin', value: release.entry_origin, app_id: game.app_id })
      .onConflict(['kind', 'value'])
      .ignore();
    const claim = (await ArcadeClaim.query(trx).select('app_id').findById(['origin', release.entry_origin]))!;
    if (claim.app_id !== game.app_id) {
      throw conflict('origin_in_use', { field: 'entry_url' }, 'Another game already uses this origin.');
    }
    const [row] = await ArcadeRelease.query(trx)
      .where({ id: release.id })
      .patch({ status: 'submitted', submitted_at: fn.now(), last_check_id: check.id })
      .returning('*');
    await recordEvent(trx, game.app_id, 'release_submitted', { number: release.number });
    await emailDeveloper(
      trx,
      game,
      `Release ${release.number} of ${game.slug} submitted`,
      `Release ${release.number} of ${game.slug} (${release.entry_url}) is waiting for review.`,
    );
    return row as ReleaseRow;
  });
  return { release: submitted, check };
}

/** The refusals of making live that need no fetch, in the spec's order. */
async function refuseLive(knex: Knex | Knex.Transaction, game: ArcadeApp, release: ReleaseRow, now = Date.now()) {
  if (release.status !== 'approved' || release.id === game.live_release_id) {
    throw conflict('release_not_approved', {}, 'Only an approved release that is not live can be made live.');
  }
  if (!release.approved_at || now - new Date(release.approved_at).getTime() > APPROVAL_MAX_AGE_MS) {
    throw conflict('approval_too_old', {}, 'The approval is more than 90 days old: submit it again as a new release.');
  }
  const live = game.live_release_id
    ? ((await ArcadeRelease.query(knex).select('number').findById(game.live_release_id)) ?? null)
    : null;
  if (live && release.number < live.number && release.id !== game.previous_live_release_id) {
    throw conflict(
      'rollback_too_far',
      {},
      'Only the release live just before can come back; submit older ones again as new releases.',
    );
  }
}

export async function makeLive(services: MoveServices, game: ArcadeApp, releaseId: string) {
  const { knex } = services;
  const release = await findRelease(knex, game.app_id, releaseId);
  await refuseLive(knex, game, release);
  await refuseBlockedHost(knex, release, services.rdapBaseUrl);
  const check = await checkNow(knex, services.replies, game.app_id, release.id, 'live');
  if (!check.passed) throw checkFailed(check);
  if (release.approval_provider && check.result.provider !== release.approval_provider) {
    throw conflict(
      'provider_changed',
      { detail: { approved: release.approval_provider, now: check.result.provider } },
      'The game is hosted elsewhere than when it was approved: submit it again.',
    );
  }
  const updated = await knex.transaction(async (trx) => {
    // Removed while the check ran: a removed game gets no live release.
    const current = await lockOpenGame(trx, game.app_id);
    await refuseLive(trx, current, await findRelease(trx, game.app_id, release.id, true));
    await ArcadeRelease.query(trx).findById(release.id).patch({ went_live_at: fn.now(), last_check_id: check.id });
    const previous =
      current.live_release_id === release.id ? current.previous_live_release_id : current.live_release_id;
    const [row] = await ArcadeGame.query(trx)
      .where({ app_id: game.app_id })
      .patch({ live_release_id: release.id, previous_live_release_id: previous })
      .returning('*');
    await recordEvent(trx, game.app_id, 'release_live', { number: release.number });
    // The fresh check pins the hosting provider; a game its checks hid for provider_change is back.
    const shown = await pinLiveRelease(trx, row as ArcadeApp, check);
    // Events held while no live release named an events URL go out now.
    if (release.data_events_url) await releaseHeldEvents(trx, game.app_id);
    await emailDeveloper(
      trx,
      game,
      `Release ${release.number} of ${game.slug} is live`,
      `Players now get release ${release.number} of ${game.slug}.`,
    );
    return shown;
  });
  return { game: updated, check };
}
