// One capture with what it shows (the count of comments on it) and what the reader is to its author
// (follows, a block either way), in one statement. Who may see it is decided by capture-rules.ts.
import type { Knex } from 'knex';
import { raw } from 'objection';
import { NOBODY } from '../people/visibility.js';
import { thingSeenBy } from '../people/item-visibility.js';
import { CAPTURE_QUOTA, captureNotFound } from './capture-rules.js';
import type { CaptureRow, FoundCapture } from './rows.js';
import { commentCountSql } from '../content/comment-count.js';
import { readerRelationSelects } from '../content/reader-relation.js';
import { CAPTURE_COLUMNS, Screenshot } from './models.js';

/** A capture by `column` (its public id or row id), its comment count and what the reader is to its author. */
async function found(
  knex: Knex | Knex.Transaction,
  column: 'public_id' | 'id',
  id: string,
  readerId: string | null,
): Promise<FoundCapture | null> {
  const row = await Screenshot.query(knex)
    .alias('s')
    .select(CAPTURE_COLUMNS.map((name) => `s.${name}`))
    .select(raw(`${commentCountSql('SCREENSHOT', 's.id')} AS comments`))
    .select(readerRelationSelects('s.account_id', readerId ?? NOBODY))
    .where(`s.${column}`, id)
    .first()
    .castTo<(CaptureRow & { follows: boolean; blocked: boolean }) | undefined>();
  if (!row) return null;
  const { follows, blocked, ...capture } = row;
  return { capture, follows, blocked };
}

/** The capture clients name `publicId`, as `readerId` (null: anonymous) finds it, or null when there is none. */
export function findCapture(
  knex: Knex | Knex.Transaction,
  publicId: string,
  readerId: string | null,
): Promise<FoundCapture | null> {
  return found(knex, 'public_id', publicId, readerId);
}

/** The capture of `publicId` as its author sees it: null when it is not theirs (or there is none). */
export async function findOwnCapture(
  knex: Knex | Knex.Transaction,
  authorId: string,
  publicId: string,
): Promise<CaptureRow | null> {
  const capture = (await findCapture(knex, publicId, authorId))?.capture;
  return capture && capture.account_id === authorId ? capture : null;
}

/** A capture by its row id (what an upload records), as its author sees it. */
export async function captureByRowId(knex: Knex | Knex.Transaction, id: string): Promise<CaptureRow | null> {
  return (await found(knex, 'id', id, null))?.capture ?? null;
}

/**
 * The capture of `publicId` if `readerId` may see it (thingSeenBy), else 404 `screenshot_not_found`, as
 * for no capture. For the routes that act on another person's capture (likes, comments).
 */
export async function readCapture(knex: Knex, publicId: string, readerId: string | null): Promise<CaptureRow> {
  const seen = await findCapture(knex, publicId, readerId);
  if (!seen) throw captureNotFound();
  const { capture, follows, blocked } = seen;
  const access = { authorId: capture.account_id, visibility: capture.visibility, removed: capture.removed_at !== null };
  if (!thingSeenBy(access, { id: readerId, follows, blocked })) throw captureNotFound();
  return capture;
}

/** What an account holds against its quota: every capture, removed ones too. */
export async function captureQuotaIn(knex: Knex | Knex.Transaction, accountId: string) {
  const row = await Screenshot.query(knex)
    .where({ account_id: accountId })
    .select(raw('count(*)::int AS count'), raw('coalesce(sum(bytes), 0)::bigint AS bytes'))
    .first()
    .castTo<{ count: number; bytes: number } | undefined>();
  return { ...CAPTURE_QUOTA, count: Number(row?.count ?? 0), bytes: Number(row?.bytes ?? 0) };
}
