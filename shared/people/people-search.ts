// Finding people (spec: GET /search/people): by username or display name without case or accents, 24 a
// page up to page 100. Accounts without a username are not findable; people who block the reader or whom
// the reader blocks are left out; suspended accounts are left out of rows and total alike, except for
// staff (who must find them to act) and for the suspended account itself.
import type { Knex } from 'knex';
import { NOT_SUSPENDED } from '../moderation/suspension.js';
import { pageObject, pageWindow, type PageSpec } from '../platform/paging/paging.js';
import { presentPersonSummary } from './presenters.js';
import { escapeLike } from '../platform/db/like.js';

export const PEOPLE_PAGE: PageSpec = { size: 24, maxPage: 100 };
export const PEOPLE_SORTS = ['relevance', 'newest', 'name'] as const;
export type PeopleSort = (typeof PEOPLE_SORTS)[number];
export const PEOPLE_QUERY_MAX = 80;

export interface PeopleSearch {
  q?: string;
  /** 1: only verified accounts; 0 or absent: everyone. */
  verified?: number;
  sort: PeopleSort;
  page: number;
}

export interface PeopleReader {
  accountId: string | null;
  /** Moderators and admins see suspended accounts too. */
  staff: boolean;
}

interface PersonRow {
  username: string;
  display_name: string | null;
  avatar_key: string | null;
  verified: boolean;
  level: number | null;
}

export async function searchPeople(
  knex: Knex,
  search: PeopleSearch,
  reader: PeopleReader,
  mediaUrl: (key: string) => string,
) {
  const query = knex('accounts as a').whereNotNull('a.username');
  if (!reader.staff) {
    // The reader's own account shows even while suspended: it is theirs to look at.
    query.where((own) => {
      own.whereRaw(NOT_SUSPENDED('a.id'));
      if (reader.accountId) own.orWhere('a.id', reader.accountId);
    });
  }
  if (reader.accountId) {
    query.whereNotExists(
      knex('blocks as b').whereRaw(
        '(b.blocker_id = ? AND b.blocked_id = a.id) OR (b.blocker_id = a.id AND b.blocked_id = ?)',
        [reader.accountId, reader.accountId],
      ),
    );
  }
  if (search.verified === 1) query.whereExists(knex('verifications as v').whereRaw('v.account_id = a.id'));
  const text = search.q?.trim();
  if (text) {
    const contains = `%${escapeLike(text)}%`;
    query.where((match) =>
      match
        .whereRaw('catalog_fold(a.username) LIKE catalog_fold(?)', [contains])
        .orWhereRaw("catalog_fold(coalesce(a.display_name, '')) LIKE catalog_fold(?)", [contains]),
    );
  }

  const rowsQuery = query
    .clone()
    .leftJoin('profiles as p', 'p.account_id', 'a.id')
    .leftJoin('images as i', 'i.id', 'p.avatar_image_id')
    .leftJoin('mineral_balances as m', 'm.account_id', 'a.id')
    .select(
      'a.username',
      'a.display_name',
      'i.storage_key as avatar_key',
      'm.level',
      knex.raw('EXISTS (SELECT 1 FROM verifications v WHERE v.account_id = a.id) AS verified'),
    );
  orderRows(rowsQuery, search.sort, text);
  const { limit, offset } = pageWindow(search.page, PEOPLE_PAGE);
  const [rows, counted] = await Promise.all([
    rowsQuery.limit(limit).offset(offset) as Promise<PersonRow[]>,
    query.clone().count<{ n: number }[]>('* as n'),
  ]);
  return {
    data: rows.map((row) => ({
      ...presentPersonSummary(row, mediaUrl),
      verified: row.verified,
      level: row.level ?? 1,
    })),
    page: pageObject(search.page, PEOPLE_PAGE, Number(counted[0].n)),
  };
}

/** Every order ends on the account id, so pages never overlap when names or instants tie. */
function orderRows(query: Knex.QueryBuilder, sort: PeopleSort, text: string | undefined): void {
  if (sort === 'name') {
    // Usernames are ASCII: byte order is the same on every database, whatever its collation.
    query.orderByRaw('a.username COLLATE "C" ASC, a.id ASC');
    return;
  }
  if (sort === 'relevance' && text) {
    // Exact username first, then names that start with the text, then the rest that contain it.
    const prefix = `${escapeLike(text)}%`;
    query.orderByRaw(
      `CASE WHEN catalog_fold(a.username) = catalog_fold(?) THEN 0
            WHEN catalog_fold(a.username) LIKE catalog_fold(?)
              OR catalog_fold(coalesce(a.display_name, '')) LIKE catalog_fold(?) THEN 1
            ELSE 2 END, a.username COLLATE "C" ASC, a.id ASC`,
      [text, prefix, prefix],
    );
    return;
  }
  // `newest`, and `relevance` without a text (nothing to be relevant to).
  query.orderBy([
    { column: 'a.created_at', order: 'desc' },
    { column: 'a.id', order: 'asc' },
  ]);
}
