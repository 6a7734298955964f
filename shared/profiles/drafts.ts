// Drafts: unpublished writing of the owner. Another account's draft is 404, like every owned resource.
import type { Knex } from 'knex';
import { claimAccountPlace } from '../accounts/account-limits.js';
import { notFound } from '../platform/errors.js';
import { isUuid } from '../platform/validation/uuid.js';

export const DRAFT_KINDS = ['review', 'list', 'journal', 'note'] as const;
export const DRAFTS_PER_ACCOUNT = 100;
export const DRAFT_PAGE_SIZE = 50;

export interface DraftRow {
  id: string;
  account_id: string;
  kind: string;
  title: string;
  body: string;
  game: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface DraftInput {
  kind?: (typeof DRAFT_KINDS)[number];
  title?: string;
  body?: string;
  game?: string | null;
}

export function presentDraft(row: DraftRow) {
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

async function findOwn(knex: Knex | Knex.Transaction, accountId: string, id: string): Promise<DraftRow> {
  const row = isUuid(id) ? await knex<DraftRow>('drafts').where({ id, account_id: accountId }).first() : undefined;
  if (!row) throw notFound('No draft of yours has this id.', 'draft_not_found');
  return row;
}

export async function listDrafts(knex: Knex, accountId: string, page: { limit: number; offset: number }) {
  const [rows, [{ count }]] = await Promise.all([
    knex<DraftRow>('drafts')
      .where({ account_id: accountId })
      .orderBy([{ column: 'updated_at', order: 'desc' }, { column: 'id' }])
      .limit(page.limit)
      .offset(page.offset),
    knex('drafts').where({ account_id: accountId }).count<{ count: number }[]>({ count: '*' }),
  ]);
  return { rows, total: count };
}

export function getDraft(knex: Knex, accountId: string, id: string): Promise<DraftRow> {
  return findOwn(knex, accountId, id);
}

export async function createDraft(
  knex: Knex,
  accountId: string,
  input: Required<Pick<DraftInput, 'kind'>> & DraftInput,
): Promise<DraftRow> {
  return knex.transaction(async (trx) => {
    await claimAccountPlace(trx, accountId, {
      table: 'drafts',
      limit: DRAFTS_PER_ACCOUNT,
      reason: 'draft_limit_reached',
      noun: 'drafts',
    });
    const [row] = await trx<DraftRow>('drafts')
      .insert({ account_id: accountId, ...input })
      .returning('*');
    return row;
  });
}

export async function updateDraft(knex: Knex, accountId: string, id: string, changes: DraftInput): Promise<DraftRow> {
  const row = await findOwn(knex, accountId, id);
  if (Object.keys(changes).length === 0) return row;
  const [updated] = await knex<DraftRow>('drafts')
    .where({ id: row.id, account_id: accountId })
    .update({ ...changes, updated_at: knex.fn.now() as unknown as Date })
    .returning('*');
  return updated;
}

export async function deleteDraft(knex: Knex, accountId: string, id: string): Promise<void> {
  const row = await findOwn(knex, accountId, id);
  await knex('drafts').where({ id: row.id }).delete();
}
