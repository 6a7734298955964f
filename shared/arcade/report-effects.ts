// What reports do to an Arcade game (spec: Reports; issue 9): each report asks for a re-check of the live
// release, at most once an hour per game however many arrive; and three open reports from different
// accounts hide the game with notice reason `reports` until a moderator decides (restore, or more).
import type { Knex } from 'knex';
import { queueReportRecheck } from './checks.js';
import { actOnGame } from './review.js';
import { fn } from 'objection';
import { UNSTAMPED } from '../platform/db/base-model.js';
import { ArcadeGame } from './models.js';

/** Open reports from this many different accounts hide a game. */
export const REPORTS_TO_HIDE = 3;

export async function afterArcadeReport(trx: Knex.Transaction, appId: string): Promise<void> {
  // The game's row is the lock: two reports arriving together count each other.
  const game = await ArcadeGame.query(trx).findById(appId).forUpdate();
  if (!game) return;
  if (game.live_release_id) {
    // A report's recheck is no change of the game: its updated_at stays.
    const due = await ArcadeGame.query(trx)
      .context(UNSTAMPED)
      .where({ app_id: appId })
      .where((q) => q.whereNull('report_recheck_at').orWhereRaw("report_recheck_at <= now() - interval '1 hour'"))
      .patch({ report_recheck_at: fn.now() });
    if (due > 0) await queueReportRecheck(trx, appId, game.live_release_id);
  }
  if (game.notice_kind === 'hidden' || game.status === 'suspended' || game.status === 'removed') return;
  const { count } = (await trx('reports')
    .where({ target_kind: 'ARCADE_APP', target_id: appId, status: 'open' })
    .countDistinct('reporter_id as count')
    .first()) as { count: number };
  if (Number(count) >= REPORTS_TO_HIDE) await actOnGame(trx, null, appId, 'hide', 'reports');
}
