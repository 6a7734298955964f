// url.check: a fresh check of one release (spec: Check), stored with why it ran. The fetches go through the
// outbound guard (shared/arcade/url-check.ts never throws: a refused host is a failed check). The answer
// is the stored check's id, which the waiting route reads.
import { runUrlCheck } from '../../shared/arcade/url-check.js';
import { config } from '../../shared/config.js';
import type { ReleaseRow } from '../../shared/arcade/presenters.js';
import type { JobPayloads } from '../../shared/queue.js';
import type { JobHandler } from '../job-context.js';

export const checkUrl: JobHandler<JobPayloads['url.check']> = async ({ release_id, cause }, context) => {
  const { knex } = context;
  const release = (await knex('arcade_releases').where({ id: release_id }).first()) as ReleaseRow | undefined;
  // A release that is gone (its game's evidence purged) needs no check.
  if (!release) return { check_id: null };
  const check = await runUrlCheck({
    appId: release.app_id,
    entryUrl: release.entry_url,
    publicOrigin: config().publicOrigin,
    approvedSha256: release.approval_sha256,
    approvedProvider: release.approval_provider,
  });
  const checkId = await knex.transaction(async (trx) => {
    const [row] = await trx('arcade_checks')
      .insert({ app_id: release.app_id, release_id, cause, passed: check.passed, result: JSON.stringify(check) })
      .returning('id');
    await trx('arcade_releases').where({ id: release_id }).update({ last_check_id: row.id });
    return row.id as string;
  });
  return { check_id: checkId };
};
