// URL checks of releases (spec: Check; POST .../check, and the checks submit and live run first). The route
// asks the worker through the `url.check` job and waits for the answer: outside fetches never run in the
// web process. 20 checks a day per app, whoever asked (check, submit, live); a report's re-check runs at
// most once an hour per game and waits for nobody. The service's own checks of live games (`schedule`,
// rechecks.ts) are its own work: like a report's, they spend nothing of the developer's 20.
import type { Knex } from 'knex';
import { internal } from '../platform/errors.js';
import { JobFailedError, JobTimeoutError, type JobReplies } from '../platform/jobs/request-reply.js';
import { sendJob } from '../platform/jobs/queue.js';
import { limiterFor } from '../platform/rate-limits/attempt-limiter.js';
import type { CheckRow } from './rows.js';
import { ArcadeCheck } from './models.js';

export type CheckCause = 'check' | 'submit' | 'live' | 'report' | 'schedule';

/** Spec Limits: URL checks, 20 per app per day, submit and make-live checks included. */
export const CHECKS_PER_DAY = { name: 'arcade-check', failures: 20, windowSeconds: 24 * 3600, reason: 'rate_limited' };

/** How long a route waits for its check: the guard's 10 s for each of the proof and the entry, and a margin. */
export const CHECK_WAIT_MS = 30_000;

/** Counts a check against the app's day; 429 past 20. */
export async function spendCheck(knex: Knex, appId: string): Promise<void> {
  await limiterFor(knex, CHECKS_PER_DAY).spend([appId]);
}

/** Runs a fresh check of the release in the worker and answers its stored row. */
export async function checkNow(
  knex: Knex,
  replies: JobReplies,
  appId: string,
  releaseId: string,
  cause: Exclude<CheckCause, 'report' | 'schedule'>,
): Promise<CheckRow> {
  await spendCheck(knex, appId);
  let answer: { check_id: string };
  try {
    answer = await replies.requestInTransaction<{ check_id: string }>(
      'url.check',
      { timeoutMs: CHECK_WAIT_MS, busyAt: 50 },
      async (trx, jobId) => {
        await sendJob(trx, 'url.check', { release_id: releaseId, cause }, { id: jobId });
      },
    );
  } catch (error) {
    if (error instanceof JobTimeoutError || error instanceof JobFailedError) {
      throw internal('check_unavailable', 'The check could not run right now; try again shortly.');
    }
    throw error;
  }
  return (await ArcadeCheck.query(knex).findById(answer.check_id))!;
}

/** A report's re-check of the live release (report-effects.ts decides it is due: once an hour per game). */
export async function queueReportRecheck(trx: Knex.Transaction, appId: string, releaseId: string): Promise<void> {
  await sendJob(trx, 'url.check', { release_id: releaseId, cause: 'report' }, { singletonKey: `recheck:${appId}` });
}
