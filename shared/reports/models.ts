// A report someone filed (reports.ts), as moderation reads and resolves it (report-queue.ts,
// resolve-report.ts).
import { BaseModel } from '../platform/db/base-model.js';
import type { ReportKind, ReportOutcome, ReportReason } from './report-rules.js';

export class Report extends BaseModel {
  static override tableName = 'reports';
  static override jsonAttributes = ['snapshot'];

  declare id: string;
  /** Null once the reporter's account is gone. */
  declare reporter_id: string | null;
  declare target_kind: ReportKind;
  declare reason: ReportReason;
  declare target_account_id: string | null;
  declare target_id: string;
  declare details: string | null;
  declare instance_id: string | null;
  /** What the target showed when it was reported. */
  declare snapshot: unknown;
  declare status: 'open' | 'resolved';
  declare outcome: ReportOutcome | null;
  declare note: string | null;
  declare resolved_by: string | null;
  declare resolved_at: Date | null;
  declare created_at: Date;
  declare priority: number;
}
