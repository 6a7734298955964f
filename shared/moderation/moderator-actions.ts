// The record of every moderator action, written in the transaction of the action itself so neither can
// exist without the other, and read back page by page for staff (GET /moderation/actions).
import type { Knex } from 'knex';
import type { ModelObject } from 'objection';
import { pageObject, pageWindow } from '../platform/paging/paging.js';
import { ModeratorAction } from './models.js';

export type ModeratorActionKind =
  | 'resolve_report'
  | 'add_infraction'
  | 'block_publisher'
  | 'unblock_publisher'
  | 'set_role'
  | 'review_release'
  | 'review_listing'
  | 'arcade_app_action'
  | 'remove_content'
  | 'restore_content';

export interface ActionSubject {
  kind: 'report' | 'account' | 'release' | 'listing' | 'arcade_app' | 'content';
  /** For `content`: `<kind>:<id>`, as POST /moderation/content/{kind}/{id} names it. */
  id: string;
}

export const ACTIONS_PAGE = { size: 50 };

/** `moderatorId` null: an operator acted from the command line. */
export async function recordAction(
  trx: Knex.Transaction,
  moderatorId: string | null,
  action: ModeratorActionKind,
  subject: ActionSubject,
  details: Record<string, unknown>,
): Promise<void> {
  await ModeratorAction.query(trx).insert({
    moderator_id: moderatorId,
    action,
    subject_kind: subject.kind,
    subject_id: subject.id,
    details,
  });
}

/** A recorded action with its moderator's current username. */
type ActionRow = ModelObject<ModeratorAction> & { moderator_username: string | null };

export function presentAction(row: ActionRow) {
  return {
    id: row.id,
    moderator: row.moderator_id ? { id: row.moderator_id, username: row.moderator_username } : null,
    action: row.action,
    subject: { kind: row.subject_kind, id: row.subject_id },
    details: row.details,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** Newest first. */
export async function listActions(knex: Knex, page: number) {
  const { limit, offset } = pageWindow(page, ACTIONS_PAGE);
  const [rows, counted] = await Promise.all([
    ModeratorAction.query(knex)
      .alias('m')
      .leftJoin('accounts as a', 'a.id', 'm.moderator_id')
      .select('m.*', 'a.username as moderator_username')
      .orderBy([
        { column: 'm.created_at', order: 'desc' },
        { column: 'm.id', order: 'desc' },
      ])
      .limit(limit)
      .offset(offset)
      .castTo<ActionRow[]>(),
    ModeratorAction.query(knex).resultSize(),
  ]);
  return { data: rows.map(presentAction), page: pageObject(page, ACTIONS_PAGE, counted) };
}
