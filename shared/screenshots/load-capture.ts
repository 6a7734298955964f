// One capture with what it shows (the count of comments on it) and what the reader is to its author
// (follows, a block either way), in one statement. Who may see it is decided by capture-rules.ts.
import type { Knex } from 'knex';
import { NOBODY } from '../people/visibility.js';
import { thingSeenBy } from '../people/item-visibility.js';
import { CAPTURE_QUOTA, captureNotFound } from './capture-rules.js';
import type { CaptureRow, FoundCapture } from './rows.js';
import { commentCountSql } from '../content/comment-count.js';

const statement = (where: string) => `
  SELECT s.*,
    ${commentCountSql('SCREENSHOT', 's.id')} AS comments,
    EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = :reader AND f.followee_id = s.account_id) AS follows,
    EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = :reader AND b.blocked_id = s.account_id)
      OR (b.blocker_id = s.account_id AND b.blocked_id = :reader)) AS blocked
  FROM screenshots s
  WHERE ${where}`;
const BY_PUBLIC_ID = statement('s.public_id = :id');
const BY_ROW_ID = statement('s.id = :id');

async function found(knex: Knex | Knex.Transaction, text: string, id: string, readerId: string | null) {
  const { rows } = await knex.raw<{ rows: Array<CaptureRow & { follows: boolean; blocked: boolean }> }>(text, {
    id,
    reader: readerId ?? NOBODY,
  });
  if (!rows[0]) return null;
  const { follows, blocked, ...capture } = rows[0];
  return { capture, follows, blocked };
}

/** The capture clients name `publicId`, as `readerId` (null: anonymous) finds it, or null when there is none. */
export function findCapture(
  knex: Knex | Knex.Transaction,
  publicId: string,
  readerId: string | null,
): Promise<FoundCapture | null> {
  return found(knex, BY_PUBLIC_ID, publicId, readerId);
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
  return (await found(knex, BY_ROW_ID, id, null))?.capture ?? null;
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
  const row = await knex('screenshots')
    .where({ account_id: accountId })
    .first(knex.raw('count(*)::int AS count'), knex.raw('coalesce(sum(bytes), 0)::bigint AS bytes'));
  return { ...CAPTURE_QUOTA, count: Number(row?.count ?? 0), bytes: Number(row?.bytes ?? 0) };
}
