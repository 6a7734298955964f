// The moderation queue (DECISIONS: GET /moderation/reports): open reports first, then by priority
// (CHILD_SAFETY, SELF_HARM, VIOLENCE; then SCAM; then the rest), oldest first. The order is the
// database's, over the reports_queue index on (status, priority, created_at, id); nothing is sorted here.
import type { Knex } from 'knex';
import type { ModelObject } from 'objection';
import { pageObject, pageWindow } from '../platform/paging/paging.js';
import { Report } from './models.js';

export const QUEUE_PAGE = { size: 50 };
export const REPORT_STATUSES = ['open', 'resolved'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** A report with the current usernames of the people it names. */
export type QueueRow = ModelObject<Report> & {
  reporter_username: string | null;
  target_username: string | null;
  resolver_username: string | null;
};

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

/** Pure: one queue item. Names are current usernames; the snapshot keeps what the target showed then. */
export function presentQueueItem(row: QueueRow) {
  return {
    id: row.id,
    on: row.target_kind,
    reason: row.reason,
    priority: row.priority,
    status: row.status,
    details: row.details,
    instance_id: row.instance_id,
    reporter: row.reporter_id ? { id: row.reporter_id, username: row.reporter_username } : null,
    target: {
      account_id: row.target_account_id,
      username: row.target_username,
      // PROFILE: the account's id; lists and screenshots: their public id; the rest: their id.
      id: row.target_id,
    },
    snapshot: row.snapshot,
    outcome: row.outcome,
    note: row.note,
    resolved_by: row.resolved_by ? { id: row.resolved_by, username: row.resolver_username } : null,
    resolved_at: iso(row.resolved_at),
    created_at: iso(row.created_at)!,
  };
}

export async function listReports(knex: Knex, options: { page: number; status?: ReportStatus }) {
  const filtered = () =>
    Report.query(knex)
      .alias('r')
      .modify((query) => {
        if (options.status) query.where('r.status', options.status);
      });
  const { limit, offset } = pageWindow(options.page, QUEUE_PAGE);
  const [rows, counted] = await Promise.all([
    filtered()
      .leftJoin('accounts as rep', 'rep.id', 'r.reporter_id')
      .leftJoin('accounts as tgt', 'tgt.id', 'r.target_account_id')
      .leftJoin('accounts as res', 'res.id', 'r.resolved_by')
      .select(
        'r.*',
        'rep.username as reporter_username',
        'tgt.username as target_username',
        'res.username as resolver_username',
      )
      // 'open' sorts before 'resolved': open reports come first.
      .orderBy(['r.status', 'r.priority', 'r.created_at', 'r.id'])
      .limit(limit)
      .offset(offset)
      .castTo<QueueRow[]>(),
    filtered().resultSize(),
  ]);
  return { data: rows.map(presentQueueItem), page: pageObject(options.page, QUEUE_PAGE, counted) };
}
