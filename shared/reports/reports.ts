// Filing a report (spec: POST /reports). The answer says only that it arrived; moderation reads it
// through its queue. One open report per reporter and target is the database's rule (reports_one_open),
// so two requests racing each other cannot both pass: the loser's unique violation becomes the 409.
import type { Knex } from 'knex';
import type { Account } from '../accounts/account.js';
import { registerConstraint } from '../platform/db/database-errors.js';
import { conflict, notFound } from '../platform/errors.js';
import { afterArcadeReport } from '../arcade/report-effects.js';
import { findArcadeAppTarget } from './arcade-app-target.js';
import { Report } from './models.js';
import type { ReportInput } from './report-rules.js';
import { findContentTarget, type ReportTarget } from './report-targets.js';

registerConstraint('reports_one_open', () =>
  conflict('report_open', {}, 'You already reported this, and that report is still open.'),
);

async function targetOf(knex: Knex, reporter: Account, input: ReportInput): Promise<ReportTarget> {
  if (input.on !== 'ARCADE_APP') return findContentTarget(knex, reporter, { ...input, username: input.username! });
  const found = await findArcadeAppTarget(knex, reporter, { id: input.id!, instance_id: input.instance_id });
  if (!found) throw notFound('There is no Arcade game with this id.');
  return found;
}

export async function fileReport(knex: Knex, reporter: Account, input: ReportInput): Promise<void> {
  const target = await targetOf(knex, reporter, input);
  await knex.transaction(async (trx) => {
    await insertReport(trx, reporter, input, target);
    // A game reported: a re-check of its URL, and hidden once enough different people report it.
    if (input.on === 'ARCADE_APP') await afterArcadeReport(trx, target.targetId);
  });
}

async function insertReport(trx: Knex.Transaction, reporter: Account, input: ReportInput, target: ReportTarget) {
  await Report.query(trx).insert({
    reporter_id: reporter.id,
    target_kind: input.on,
    reason: input.reason,
    target_account_id: target.accountId,
    target_id: target.targetId,
    // Blank details say nothing; keep them as none.
    details: input.details?.trim() ? input.details : null,
    instance_id: input.instance_id ?? null,
    snapshot: target.snapshot,
  });
}
