// The service's own watch over live games (spec: App Arcade record `notice`; issue 19). Every check of a
// game's live release, whoever asked (the schedule, a report, the developer), is weighed when it is stored:
// two failures in a row hide the game for `invariant`, another hosting provider than the pinned one hides
// it for `provider_change`, and two passes in a row bring back a game hidden for `invariant`. The hiding
// and the return are a moderator's moves (actOnGame) made by nobody: same status, notice, timeline and
// email. A schedule checks each watched game at its own time of day through the url.check queue; those
// checks, like a report's, spend nothing of the developer's 20 a day.
import type { Knex } from 'knex';
import { fn, raw } from 'objection';
import { boss } from '../platform/jobs/boss.js';
import { sendJob } from '../platform/jobs/queue.js';
import type { CheckCause } from './checks.js';
import { moveAfterCheck, nextRecheckAt, nextSlot, MIN_GAP_MS, observedProvider, watchOf } from './recheck-rules.js';
import { actOnGame } from './review.js';
import type { Check } from './url-check.js';
import type { ArcadeApp, CheckRow, ReleaseRow } from './rows.js';
import { UNSTAMPED } from '../platform/db/base-model.js';
import { ArcadeCheck, ArcadeEvent, ArcadeGame, ArcadeRelease } from './models.js';

/** The columns of a game this watch keeps (migration 20261125000200). */
export interface WatchedGame extends ArcadeApp {
  pinned_provider: string | null;
  recheck_due_at: Date | null;
}

/** Scheduled checks queued by one sweep (it runs every minute: 28,800 a day at most). */
export const RECHECK_BATCH = 20;
/**
 * Scheduled checks never fill url.check past this many waiting jobs: the developer's own checks share the
 * queue and are refused as busy at 50.
 */
export const RECHECK_ROOM = 25;
/** A queued game is not queued again for this long; a lost job is made up for after it. */
export const RECHECK_LEASE_MINUTES = 15;

async function lockedGame(trx: Knex.Transaction, appId: string): Promise<WatchedGame | undefined> {
  return ArcadeGame.query(trx).findById(appId).forUpdate();
}

/**
 * url.check-sweep: queues a check of each watched game whose time has come, longest due first, at most a
 * batch and never past the queue's room; each is leased so the next sweeps leave it alone. Answers how
 * many were queued.
 */
export async function sweepRechecks(knex: Knex, options: { batch?: number; room?: number } = {}): Promise<number> {
  const waiting = await boss().getQueueSize('url.check');
  const wanted = Math.min(options.batch ?? RECHECK_BATCH, (options.room ?? RECHECK_ROOM) - waiting);
  if (wanted <= 0) return 0;
  return knex.transaction(async (trx) => {
    // watchOf() in SQL: listed without a notice, or hidden for invariant.
    const due = await ArcadeGame.query(trx)
      .whereNotNull('live_release_id')
      .where((q) => q.whereNull('recheck_due_at').orWhere('recheck_due_at', '<=', fn.now()))
      .where((q) =>
        q
          .where((open) => open.where({ status: 'listed' }).whereNull('notice_kind'))
          .orWhere({ status: 'hidden', notice_kind: 'hidden', notice_reason: 'invariant' }),
      )
      .orderByRaw('recheck_due_at NULLS FIRST')
      .limit(wanted)
      // A game whose check is being stored right now is taken by the next sweep.
      .forUpdate()
      .skipLocked()
      .select('app_id', 'live_release_id')
      .castTo<Array<{ app_id: string; live_release_id: string }>>();
    // One lease for the whole batch, then one job each. Unstamped, as every write of a check's bookkeeping
    // below: it is no change of the game or the release, whose updated_at stays.
    await ArcadeGame.query(trx)
      .context(UNSTAMPED)
      .whereIn(
        'app_id',
        due.map((game) => game.app_id),
      )
      .patch({ recheck_due_at: raw(`now() + interval '${RECHECK_LEASE_MINUTES} minutes'`) });
    for (const game of due) {
      await sendJob(trx, 'url.check', { release_id: game.live_release_id, cause: 'schedule' });
    }
    return due.length;
  });
}

/** A scheduled check still has a point when it runs: the release is still live and the game watched. */
export async function scheduledCheckWanted(knex: Knex, release: ReleaseRow): Promise<boolean> {
  const game = await ArcadeGame.query(knex).findById(release.app_id);
  return game !== undefined && game.live_release_id === release.id && watchOf(game) !== null;
}

/**
 * Stores a check (the url.check job's record of it) and, when it is of the game's live release, weighs it.
 * The game's row is the lock: checks of one game are stored and weighed one after the other, so two at
 * once cannot both hide it, and each sees the one before.
 */
export async function storeCheck(knex: Knex, release: ReleaseRow, cause: CheckCause, check: Check): Promise<string> {
  return knex.transaction(async (trx) => {
    const game = await lockedGame(trx, release.app_id);
    const row = await ArcadeCheck.query(trx)
      .insert({
        app_id: release.app_id,
        release_id: release.id,
        cause,
        passed: check.passed,
        result: check as unknown as Record<string, unknown>,
        // Taken under the lock, so the order of the stored times is the order the checks were weighed in.
        created_at: raw('clock_timestamp()'),
      })
      .returning(['id', 'created_at']);
    await ArcadeRelease.query(trx).context(UNSTAMPED).findById(release.id).patch({ last_check_id: row.id });
    if (game && game.live_release_id === release.id) await weighCheck(trx, game, check, new Date(row.created_at));
    return row.id;
  });
}

async function weighCheck(trx: Knex.Transaction, game: WatchedGame, check: Check, checkedAt: Date) {
  const appId = game.app_id;
  // Checks before the game's latest return do not count: a restored game starts a new row.
  const [latest] = await ArcadeEvent.query(trx)
    .where({ app_id: appId, kind: 'restored' })
    .max('created_at as at')
    .castTo<Array<{ at: Date | null }>>();
  const restored = latest?.at ?? null;
  const recentChecks = await ArcadeCheck.query(trx)
    .select('passed')
    .where({ release_id: game.live_release_id })
    .modify((q) => {
      if (restored) q.where('created_at', '>', restored);
    })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(2);
  const recent = recentChecks.map((row) => row.passed);
  const provider = observedProvider(check);
  const move = moveAfterCheck(game, {
    recent,
    provider,
    pinned: game.pinned_provider,
    moderatorHid: watchOf(game) === 'invariant' && (await moderatorHid(trx, appId)),
  });
  if (move?.kind === 'hide') {
    const details = move.reason === 'provider_change' ? { pinned: game.pinned_provider, now: provider } : {};
    await actOnGame(trx, null, appId, 'hide', move.reason, details);
  } else if (move?.kind === 'restore') {
    await actOnGame(trx, null, appId, 'restore', 'invariant');
  }
  const after = (await ArcadeGame.query(trx).findById(appId))!;
  const hiddenAt = watchOf(after) === 'invariant' ? new Date(after.notice_at!) : null;
  await ArcadeGame.query(trx)
    .context(UNSTAMPED)
    .findById(appId)
    .patch({
      recheck_due_at: nextRecheckAt(appId, checkedAt, check.passed, hiddenAt),
      // Nothing pinned yet (a game live before pins were kept, or restored from provider_change): this is.
      ...(after.pinned_provider === null && provider !== null ? { pinned_provider: provider } : {}),
    });
}

/** Whether the game's latest moderator action is a hide: that hiding is moderation's, not the checks'. */
async function moderatorHid(trx: Knex.Transaction, appId: string): Promise<boolean> {
  const latest = await trx('moderator_actions')
    .where({ action: 'arcade_app_action', subject_kind: 'arcade_app', subject_id: appId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first('details');
  return (latest?.details as { action?: string } | undefined)?.action === 'hide';
}

/**
 * Making a release live (release-moves.ts, in its transaction): the fresh check pins the hosting provider,
 * a game the checks hid for provider_change comes back, and the daily check starts from now.
 */
export async function pinLiveRelease(trx: Knex.Transaction, game: ArcadeApp, check: CheckRow): Promise<ArcadeApp> {
  if (
    game.notice_kind === 'hidden' &&
    game.notice_reason === 'provider_change' &&
    !(await moderatorHid(trx, game.app_id))
  ) {
    await actOnGame(trx, null, game.app_id, 'restore', 'provider_change');
  }
  const [row] = await ArcadeGame.query(trx)
    .context(UNSTAMPED)
    .where({ app_id: game.app_id })
    .patch({
      pinned_provider: observedProvider(check.result),
      recheck_due_at: nextSlot(game.app_id, new Date(new Date(check.created_at).getTime() + MIN_GAP_MS)),
    })
    .returning('*');
  return row;
}
