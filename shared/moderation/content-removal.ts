// Moderation removes and restores people's content (DECISIONS: Staff and moderation, POST
// /moderation/content/{kind}/{id}; People's own content, Shared rules): a removed thing is gone for everyone
// but its author. Removal is only `removed_at`: the readers check it, and the tables' triggers (migration
// 20261125000700_content_writes) turn the thing's activity items HIDDEN and visible again. Each change is
// recorded as a moderator action in its own transaction, about `<kind>:<id>`.
import type { Knex } from 'knex';
import type { Account } from '../accounts/account.js';
import { notFound } from '../platform/errors.js';
import { isUuid } from '../platform/validation/uuid.js';
import { recordAction } from './moderator-actions.js';

export const CONTENT_KINDS = ['review', 'list', 'screenshot', 'session', 'journey', 'comment'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

export const CONTENT_ACTIONS = ['remove', 'restore'] as const;
export type ContentAction = (typeof CONTENT_ACTIONS)[number];

/** Where each kind lives, and the id clients name it by (as reports name it: public ids for lists and screenshots). */
const CONTENT_TABLES: Record<ContentKind, { table: string; idColumn: 'id' | 'public_id' }> = {
  review: { table: 'reviews', idColumn: 'id' },
  list: { table: 'lists', idColumn: 'public_id' },
  screenshot: { table: 'screenshots', idColumn: 'public_id' },
  session: { table: 'play_sessions', idColumn: 'id' },
  journey: { table: 'journeys', idColumn: 'id' },
  comment: { table: 'comments', idColumn: 'id' },
};

export interface ContentRemoval {
  kind: ContentKind;
  id: string;
  removed: boolean;
  removed_at: string | null;
}

const noSuchContent = () => notFound('There is no content of this kind with this id.', 'content_not_found');

export function isContentKind(value: string): value is ContentKind {
  return (CONTENT_KINDS as readonly string[]).includes(value);
}

/**
 * Sets or clears `removed_at` of one thing, keeping the first removal's time when it is removed again;
 * undefined when no such thing exists. Only a real change updates the row, so a repeat fires no trigger.
 */
async function setRemoved(
  trx: Knex.Transaction,
  kind: ContentKind,
  id: string,
  removed: boolean,
): Promise<{ removed_at: Date | null } | undefined> {
  const { table, idColumn } = CONTENT_TABLES[kind];
  // A malformed uuid would be a database error; it names nothing.
  if (idColumn === 'id' && !isUuid(id)) return undefined;
  const changing = trx(table).where(idColumn, id);
  if (removed) changing.whereNull('removed_at');
  else changing.whereNotNull('removed_at');
  const [changed] = await changing.update({ removed_at: removed ? trx.fn.now() : null }).returning('removed_at');
  if (changed) return changed;
  return trx(table).where(idColumn, id).first('removed_at');
}

/**
 * Removes or restores, inside the caller's transaction, and records the action; undefined (nothing changed,
 * nothing recorded) when there is no such thing.
 */
export async function changeContentRemoval(
  trx: Knex.Transaction,
  moderatorId: string | null,
  target: { kind: ContentKind; id: string; action: ContentAction },
  details: Record<string, unknown>,
): Promise<ContentRemoval | undefined> {
  const row = await setRemoved(trx, target.kind, target.id, target.action === 'remove');
  if (!row) return undefined;
  await recordAction(
    trx,
    moderatorId,
    target.action === 'remove' ? 'remove_content' : 'restore_content',
    { kind: 'content', id: `${target.kind}:${target.id}` },
    details,
  );
  const removedAt = row.removed_at === null ? null : new Date(row.removed_at).toISOString();
  return { kind: target.kind, id: target.id, removed: removedAt !== null, removed_at: removedAt };
}

/**
 * POST /moderation/content/{kind}/{id}. A kind or id that names no content is 404 `content_not_found`:
 * path values are not input fields. Repeating an action answers the same and is recorded again.
 */
export async function moderateContent(
  knex: Knex,
  moderator: Account,
  kind: string,
  id: string,
  input: { action: ContentAction; note?: string },
): Promise<ContentRemoval> {
  if (!isContentKind(kind)) throw noSuchContent();
  const done = await knex.transaction((trx) =>
    changeContentRemoval(trx, moderator.id, { kind, id, action: input.action }, { note: input.note ?? null }),
  );
  if (!done) throw noSuchContent();
  return done;
}
