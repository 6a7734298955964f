// One list with what it shows (its author's name, its folder, the comments on it, its games as the catalog
// has them) and what the reader is to its author (follows, a block either way). Who may see it is decided
// by list-rules.ts.
import type { Knex } from 'knex';
import { loadPresentedGames } from '../catalog/games.js';
import { NOBODY } from '../people/visibility.js';
import { thingSeenBy } from '../people/item-visibility.js';
import { listNotFound } from './list-rules.js';
import { ListItem } from './models.js';
import type { FoundList, ListItemRow, ListRow } from './rows.js';
import { commentCountSql } from '../content/comment-count.js';

const STATEMENT = `
  SELECT l.*, a.username, f.public_id AS folder,
    ${commentCountSql('LIST', 'l.id')} AS comments,
    EXISTS (SELECT 1 FROM follows fw WHERE fw.follower_id = :reader AND fw.followee_id = l.account_id) AS follows,
    EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = :reader AND b.blocked_id = l.account_id)
      OR (b.blocker_id = l.account_id AND b.blocked_id = :reader)) AS blocked
  FROM lists l
  JOIN accounts a ON a.id = l.account_id
  LEFT JOIN list_folders f ON f.id = l.folder_id
  WHERE l.public_id = :id`;

/** The list of public id `id` as `readerId` (null: anonymous) finds it, or null when there is none. */
export async function findList(
  knex: Knex | Knex.Transaction,
  id: string,
  readerId: string | null,
): Promise<FoundList | null> {
  const { rows } = await knex.raw<{ rows: Array<ListRow & { follows: boolean; blocked: boolean }> }>(STATEMENT, {
    id,
    reader: readerId ?? NOBODY,
  });
  if (!rows[0]) return null;
  const { follows, blocked, ...list } = rows[0];
  return { list, follows, blocked };
}

/** A list with its items in order and their games shaped like `/games`, by id (lost games are absent). */
export interface ShownList {
  list: ListRow;
  items: ListItemRow[];
  games: Map<number, unknown>;
}

/** The items and games of `list`, in two batches. */
export async function withItems(knex: Knex | Knex.Transaction, list: ListRow): Promise<ShownList> {
  const items: ListItemRow[] = await ListItem.query(knex)
    .where({ list_id: list.id })
    .orderBy('position')
    .select('position', 'game_id', 'tier');
  const games = await loadPresentedGames(
    knex as Knex,
    items.map((item) => item.game_id),
  );
  return { list, items, games: new Map(games.map((game) => [game.id, game])) };
}

/** The list of `id` if `readerId` may see it (thingSeenBy), else 404 `list_not_found`, as for no list. */
export async function readList(knex: Knex, id: string, readerId: string | null): Promise<ShownList> {
  const found = await findList(knex, id, readerId);
  if (!found) throw listNotFound();
  const { list, follows, blocked } = found;
  const access = { authorId: list.account_id, visibility: list.visibility, removed: list.removed_at !== null };
  if (!thingSeenBy(access, { id: readerId, follows, blocked })) throw listNotFound();
  return withItems(knex, list);
}

/** The author's list of `id` with its items, as the writes answer it (null when it is not theirs). */
export async function ownShownList(trx: Knex.Transaction, authorId: string, id: string): Promise<ShownList | null> {
  const found = await findList(trx, id, authorId);
  if (!found || found.list.account_id !== authorId) return null;
  return withItems(trx, found.list);
}
