// Resolving a report (DECISIONS: POST /moderation/reports/{id}/resolve). The outcome records what the
// moderator decided; removing content or adding an infraction are their own actions. Resolving frees
// the reporter to report the same target again (the one-open rule covers open reports only).
import type { Knex } from 'knex';
import type { Account } from '../accounts/account.js';
import { conflict, notFound } from '../platform/errors.js';
import { isUuid } from '../platform/validation/uuid.js';
import { recordAction } from '../moderation/moderator-actions.js';

export const REPORT_OUTCOMES = ['no_action', 'content_removed', 'warned', 'suspended', 'banned'] as const;
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number];

const noSuchReport = () => notFound('There is no report with this id.');

export async function resolveReport(
  knex: Knex,
  moderator: Account,
  reportId: string,
  input: { outcome: ReportOutcome; note?: string },
): Promise<{ id: string; status: 'resolved'; outcome: ReportOutcome; note: string | null; resolved_at: string }> {
  if (!isUuid(reportId)) throw noSuchReport();
  return knex.transaction(async (trx) => {
    // Only an open report changes, so two moderators resolving at once cannot both succeed.
    const [row] = await trx('reports')
      .where({ id: reportId, status: 'open' })
      .update({
        status: 'resolved',
        outcome: input.outcome,
        note: input.note ?? null,
        resolved_by: moderator.id,
        resolved_at: trx.fn.now(),
      })
      .returning(['id', 'outcome', 'note', 'resolved_at']);
    if (!row) {
      const exists = await trx('reports').where({ id: reportId }).first('id');
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
    return {
      id: row.id,
      status: 'resolved',
      outcome: row.outcome,
      note: row.note,
      resolved_at: new Date(row.resolved_at).toISOString(),
    };
  });
}
