// What a report is about (spec: Reports, `username` and `id`): the account that published the target,
// the target's key, and a snapshot of what it showed at that moment, so moderation sees the reported
// version even after an edit or a deletion.
//
// A target the reporter could not see answers 404 like a missing one: the person blocked the reporter,
// or the thing is private to others (by its own visibility; a comment by its parent's). The reporter's
// own block does not hide anything here: blocking someone and reporting them go together, and the
// reporter saw the thing before the block.
import type { Knex } from 'knex';
import type { Account } from '../accounts/account.js';
import { findByUsername } from '../accounts/usernames.js';
import { invalidRequest, notFound } from '../platform/errors.js';
import { canSee, type ItemVisibility, type ReaderRelation } from '../people/item-visibility.js';
import { libraryVisibilityOf } from '../people/visibility.js';
import { readProfile } from '../profiles/profile.js';
import { isUuid } from '../platform/validation/uuid.js';
import { Comment } from '../comments/models.js';
import type { ReportKind } from './report-rules.js';

export type Snapshot = Record<string, unknown>;

export interface ReportTarget {
  /** Who published it; null only while Arcade apps cannot say (see arcade-app-target.ts). */
  accountId: string | null;
  /** The one key of the target: the account id for PROFILE, else the content's id as the service names it. */
  targetId: string;
  snapshot: Snapshot;
}

const nothingHere = () => notFound('This person posted nothing with this id that you can see.');

/** Whether `ownerId` blocked the reporter, and what the reporter is to them for per-item visibility. */
async function standingWith(knex: Knex, reporterId: string, ownerId: string) {
  if (reporterId === ownerId) return { blockedBy: false, relation: 'owner' as ReaderRelation };
  const { rows } = await knex.raw<{ rows: Array<{ blocked_by: boolean; follows: boolean }> }>(
    `SELECT EXISTS (SELECT 1 FROM blocks WHERE blocker_id = :owner AND blocked_id = :reporter) AS blocked_by,
            EXISTS (SELECT 1 FROM follows WHERE follower_id = :reporter AND followee_id = :owner) AS follows`,
    { owner: ownerId, reporter: reporterId },
  );
  const relation: ReaderRelation = rows[0].follows ? 'follower' : 'other';
  return { blockedBy: rows[0].blocked_by, relation };
}

/** Refuses what the reporter may not see of `ownerId`'s item of `visibility`. */
async function mustSee(knex: Knex, reporterId: string, ownerId: string, visibility: ItemVisibility): Promise<void> {
  const { blockedBy, relation } = await standingWith(knex, reporterId, ownerId);
  if (blockedBy || !canSee(visibility, relation)) throw nothingHere();
}

async function profileSnapshot(knex: Knex, owner: Account): Promise<Snapshot> {
  // Storage keys rather than URLs: a URL depends on where media is served from at reading time.
  const { avatar_url: avatarKey, banner_url: bannerKey, ...fields } = await readProfile(knex, owner, (key) => key);
  return { account_id: owner.id, ...fields, avatar_key: avatarKey, banner_key: bannerKey };
}

/** The item tables by the kind a comment names its parent with, and how each finds its row by id. */
const ITEM_TABLES: Record<string, { table: string; idColumn: 'id' | 'public_id'; columns: string[] }> = {
  REVIEW: {
    table: 'reviews',
    idColumn: 'id',
    columns: ['id', 'game_id', 'body', 'rating', 'contains_spoilers', 'visibility', 'created_at', 'updated_at'],
  },
  LIST: {
    table: 'lists',
    idColumn: 'public_id',
    columns: ['id', 'public_id', 'title', 'description', 'visibility', 'mode', 'created_at', 'updated_at'],
  },
  SCREENSHOT: {
    table: 'screenshots',
    idColumn: 'public_id',
    columns: [
      'id',
      'public_id',
      'game_id',
      'description',
      'visibility',
      'contains_spoilers',
      'sensitive',
      'image_key',
      'created_at',
    ],
  },
  DIARY: {
    table: 'play_sessions',
    idColumn: 'id',
    columns: ['id', 'game_id', 'started_at', 'ended_at', 'minutes', 'note', 'visibility', 'created_at'],
  },
  JOURNEY: {
    table: 'journeys',
    idColumn: 'id',
    columns: ['id', 'game_id', 'title', 'visibility', 'started_at', 'finished_at', 'created_at'],
  },
};

/** One item of `ownerId` by the id a client uses for it (uuid, or public id for lists and screenshots). */
async function ownedItem(knex: Knex, kind: string, ownerId: string, id: string, by: 'client' | 'row' = 'client') {
  const source = ITEM_TABLES[kind];
  const column = by === 'row' ? 'id' : source.idColumn;
  // A malformed uuid would be a database error; it is simply not found.
  if (column === 'id' && !isUuid(id)) return undefined;
  const query = knex(source.table).where({ account_id: ownerId, [column]: id });
  // Moderation already removed it: nobody sees it, so there is nothing to report.
  if (source.table === 'screenshots') query.whereNull('removed_at');
  return query.first(...source.columns) as Promise<(Snapshot & { id: string; visibility: ItemVisibility }) | undefined>;
}

/** A posted thing of `owner` (DIARY: a diary session or a journey, both uuids). */
async function itemTarget(knex: Knex, relation: ReaderRelation, owner: Account, on: ReportKind, id: string) {
  let kind: string = on;
  let row = await ownedItem(knex, kind, owner.id, id);
  if (!row && on === 'DIARY') {
    kind = 'JOURNEY';
    row = await ownedItem(knex, kind, owner.id, id);
  }
  if (!row || !canSee(row.visibility, relation)) throw nothingHere();
  const key = ITEM_TABLES[kind].idColumn === 'public_id' ? (row.public_id as string) : row.id;
  const { id: _rowId, public_id: _publicId, ...fields } = row;
  return { targetId: key, snapshot: { kind: kind.toLowerCase(), id: key, ...fields } };
}

/** A reported comment's fields, with the username of the account it is addressed to. */
type CommentRow = Pick<Comment, 'id' | 'body' | 'target_kind' | 'target_id' | 'target_account_id' | 'created_at'> & {
  owner_username: string | null;
};

/** A comment `author` wrote: on a profile (PROFILE_COMMENT) or on a posted thing (CONTENT_COMMENT). */
async function commentTarget(knex: Knex, reporterId: string, author: Account, on: ReportKind, id: string) {
  if (!isUuid(id)) throw nothingHere();
  const row = await Comment.query(knex)
    .alias('c')
    .joinRelated('owner', { alias: 'o' })
    .where({ 'c.id': id, 'c.account_id': author.id })
    .where('c.target_kind', on === 'PROFILE_COMMENT' ? '=' : '<>', 'PROFILE')
    .whereNull('c.removed_at')
    .select(
      'c.id',
      'c.body',
      'c.target_kind',
      'c.target_id',
      'c.target_account_id',
      'o.username as owner_username',
      'c.created_at',
    )
    .first()
    .castTo<CommentRow | undefined>();
  if (!row) throw nothingHere();
  const ownerId = row.target_account_id;
  if (on === 'PROFILE_COMMENT') {
    // A profile's conversation shows where its pages show: to everyone when public, else to followers.
    const pages = (await libraryVisibilityOf(knex, ownerId)) === 'PUBLIC' ? 'PUBLIC' : 'FOLLOWERS';
    await mustSee(knex, reporterId, ownerId, pages);
    // A comment by someone the profile's owner blocked is shown to no one.
    const hidden = await knex('blocks').where({ blocker_id: ownerId, blocked_id: author.id }).first('blocker_id');
    if (hidden) throw nothingHere();
  } else {
    const parent = await ownedItem(knex, row.target_kind, ownerId, row.target_id, 'row');
    if (!parent) throw nothingHere();
    await mustSee(knex, reporterId, ownerId, parent.visibility);
  }
  return {
    targetId: row.id,
    snapshot: {
      id: row.id,
      body: row.body,
      created_at: row.created_at,
      on: { kind: row.target_kind, id: row.target_id, account_id: ownerId, username: row.owner_username },
    },
  };
}

/**
 * The target of a report on anything but an Arcade app. The person is found by current name or 30-day
 * alias; oneself is 400 (nobody reports their own things); a missing or unseeable target is 404.
 */
export async function findContentTarget(
  knex: Knex,
  reporter: Account,
  input: { on: ReportKind; username: string; id?: string },
): Promise<ReportTarget> {
  const owner = await findByUsername(knex, input.username);
  if (!owner) throw notFound('No one has this username.');
  if (owner.id === reporter.id) {
    throw invalidRequest('You cannot report yourself or what you posted.', {
      field: 'username',
      reason: 'not_allowed',
    });
  }
  const { blockedBy, relation } = await standingWith(knex, reporter.id, owner.id);
  if (blockedBy) throw notFound('No one has this username.');
  if (input.on === 'PROFILE') {
    return { accountId: owner.id, targetId: owner.id, snapshot: await profileSnapshot(knex, owner) };
  }
  const found =
    input.on === 'PROFILE_COMMENT' || input.on === 'CONTENT_COMMENT'
      ? await commentTarget(knex, reporter.id, owner, input.on, input.id!)
      : await itemTarget(knex, relation, owner, input.on, input.id!);
  return { accountId: owner.id, ...found };
}
