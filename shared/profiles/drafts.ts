// Drafts: unpublished writing of the owner. Another account's draft is 404, like every owned resource.
import type { Knex } from 'knex';
import { claimAccountPlace } from '../accounts/account-limits.js';
import { notFound } from '../platform/errors.js';
import { isUuid } from '../platform/validation/uuid.js';
import { Draft } from './models.js';

export const DRAFT_KINDS = ['review', 'list', 'journal', 'note'] as const;
export const DRAFTS_PER_ACCOUNT = 100;
export const DRAFT_PAGE_SIZE = 50;

export interface DraftInput {
  kind?: (typeof DRAFT_KINDS)[number];
  title?: string;
  body?: string;
  game?: string | null;
}

export function presentDraft(row: Draft) {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    game: row.game,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

async function findOwn(knex: Knex | Knex.Transaction, accountId: string, id: string): Promise<Draft> {
  const row = isUuid(id) ? await Draft.query(knex).findOne({ id, account_id: accountId }) : undefined;
  if (!row) throw notFound('No draft of yours has this id.', 'draft_not_found');
  return row;
}

export async function listDrafts(knex: Knex, accountId: string, page: { limit: number; offset: number }) {
  const [rows, total] = await Promise.all([
    Draft.query(knex)
      .where({ account_id: accountId })
      .orderBy([{ column: 'updated_at', order: 'desc' }, { column: 'id' }])
      .limit(page.limit)
      .offset(page.offset),
    Draft.query(knex).where({ account_id: accountId }).resultSize(),
  ]);
  return { rows, total };
}

export function getDraft(knex: Knex, accountId: string, id: string): Promise<Draft> {
  return findOwn(knex, accountId, id);
}

export async function createDraft(
  knex: Knex,
  accountId: string,
  input: Required<Pick<DraftInput, 'kind'>> & DraftInput,
): Promise<Draft> {
  return knex.transaction(async (trx) => {
    await claimAccountPlace(trx, accountId, {
      table: 'drafts',
      limit: DRAFTS_PER_ACCOUNT,
      reason: 'draft_limit_reached',
      noun: 'drafts',
    });
    return Draft.query(trx)
      .insert({ account_id: accountId, ...input })
      .returning('*');
  });
}

export async function updateDraft(knex: Knex, accountId: string, id: string, changes: DraftInput): Promise<Draft> {
  const row = await findOwn(knex, accountId, id);
  if (Object.keys(changes).length === 0) return row;
  // The model stamps updated_at (touchesUpdatedAt), which orders the list of drafts.
  const [updated] = await Draft.query(knex).where({ id: row.id, account_id: accountId }).patch(changes).returning('*');
  return updated;
}

export async function deleteDraft(knex: Knex, accountId: string, id: string): Promise<void> {
  const row = await findOwn(knex, accountId, id);
  await Draft.query(knex).deleteById(row.id);
}
