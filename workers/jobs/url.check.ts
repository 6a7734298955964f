// url.check: a fresh check of one release (spec: Check), stored with why it ran. The fetches go through the
// outbound guard (shared/arcade/url-check.ts never throws: a refused host is a failed check). A check of
// the game's live release is weighed as it is stored (shared/arcade/rechecks.ts: it may hide the game or
// bring it back). The answer is the stored check's id, which the waiting route reads.
import { scheduledCheckWanted, storeCheck } from '../../shared/arcade/rechecks.js';
import { runUrlCheck } from '../../shared/arcade/url-check.js';
import { config } from '../../shared/platform/config.js';
import type { JobPayloads } from '../../shared/platform/jobs/queue.js';
import type { JobHandler } from '../job-context.js';
import { ArcadeRelease } from '../../shared/arcade/models.js';

export const checkUrl: JobHandler<JobPayloads['url.check']> = async ({ release_id, cause }, context) => {
  const { knex } = context;
  const release = await ArcadeRelease.query(knex).findById(release_id);
  // A release that is gone (its game's evidence purged) needs no check; nor does a scheduled one of a
  // release no longer live or a game the schedule no longer watches.
  if (!release) return { check_id: null };
  if (cause === 'schedule' && !(await scheduledCheckWanted(knex, release))) return { check_id: null };
  const check = await runUrlCheck({
    appId: release.app_id,
    entryUrl: release.entry_url,
    publicOrigin: config().publicOrigin,
    approvedSha256: release.approval_sha256,
    approvedProvider: release.approval_provider,
  });
  return { check_id: await storeCheck(knex, release, cause, check) };
};
