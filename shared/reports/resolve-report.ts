// Resolving a report (DECISIONS: POST /moderation/reports/{id}/resolve). The outcome records what the
// moderator decided; `content_removed` also removes the reported content in the same transaction (as
// POST /moderation/content/{kind}/{id} does), while infractions stay their own action. Resolving frees
// the reporter to report the same target again (the one-open rule covers open reports only).
import type { Knex } from 'knex';
import type { Account } from '../accounts/account.js';
import { conflict, notFound } from '../platform/errors.js';
import { isUuid } from '../platform/validation/uuid.js';
import { changeContentRemoval, type ContentKind } from '../moderation/content-removal.js';
import { recordAction } from '../moderation/moderator-actions.js';
import { Report } from './models.js';
import type { ReportKind, ReportOutcome } from './report-rules.js';

export { REPORT_OUTCOMES, type ReportOutcome } from './report-rules.js';

const noSuchReport = () => notFound('There is no report with this id.');

/**
 * The content a report's target can be, tried in order: a DIARY report names a journal session or a
 * journey (report-targets.ts takes either). PROFILE and ARCADE_APP are not content.
 */
const REPORTED_CONTENT: Partial<Record<ReportKind, ContentKind[]>> = {
  REVIEW: ['review'],
  LIST: ['list'],
  SCREENSHOT: ['screenshot'],
  DIARY: ['session', 'journey'],
  PROFILE_COMMENT: ['comment'],
  CONTENT_COMMENT: ['comment'],
};

/** Removes what the report is about, when it is content that still exists; a deleted target is no obstacle. */
async function removeReported(
  trx: Knex.Transaction,
  moderator: Account,
  report: { id: string; target_kind: ReportKind; target_id: string },
  note: string | null,
): Promise<void> {
  const target = { id: report.target_id, action: 'remove' as const };
  for (const kind of REPORTED_CONTENT[report.target_kind] ?? []) {
    const removed = await changeContentRemoval(trx, moderator.id, { ...target, kind }, { note, report_id: report.id });
    if (removed) return;
  }
}

export async function resolveReport(
  knex: Knex,
  moderator: Account,
  reportId: string,
  input: { outcome: ReportOutcome; note?: string },
): Promise<{ id: string; status: 'resolved'; outcome: ReportOutcome; note: string | null; resolved_at: string }> {
  if (!isUuid(reportId)) throw noSuchReport();
  return knex.transaction(async (trx) => {
    // Only an open report changes, so two moderators resolving at once cannot both succeed.
    const [row] = await Report.query(trx)
      .where({ id: reportId, status: 'open' })
      .patch({
        status: 'resolved',
        outcome: input.outcome,
        note: input.note ?? null,
        resolved_by: moderator.id,
        resolved_at: trx.fn.now(),
      })
      .returning(['id', 'outcome', 'note', 'resolved_at', 'target_kind', 'target_id']);
    if (!row) {
      const exists = await Report.query(trx).findById(reportId).select('id');
      if (!exists) throw noSuchReport();
      throw conflict('already_resolved', {}, 'This report is already resolved.');
    }
    await recordAction(
      trx,
      moderator.id,
      'resolve_report',
      { kind: 'report', id: reportId },
      { outcome: input.outcome, note: input.note ?? null },
    );
    if (input.outcome === 'content_removed') await removeReported(trx, moderator, row, input.note ?? null);
    return {
      id: row.id,
      status: 'resolved',
      // Both just written.
      outcome: row.outcome!,
      note: row.note,
      resolved_at: new Date(row.resolved_at!).toISOString(),
    };
  });
}
