// Companies of the catalog (spec: GET /search/companies): searched by folded name like games, filtered by
// role (publishes or develops at least one game) and status, sorted by relevance, catalog size, name or
// founding date, 24 a page.
import type { Knex } from 'knex';
import { pageObject, pageWindow } from '../platform/paging/paging.js';
import { escapeLike } from '../platform/db/like.js';

export const COMPANY_PAGE = { size: 24, maxPage: 100 };
export const COMPANY_SORTS = ['relevance', 'catalog', 'name', 'oldest', 'newest'] as const;

export interface CompanySearch {
  q?: string;
  role?: 'publisher' | 'developer';
  status?: 'active';
  sort?: (typeof COMPANY_SORTS)[number];
  page: number;
}

interface CompanyRow {
  id: number;
  slug: string | null;
  name: string;
  status: string | null;
  start_date: Date | null;
  published_count: number;
  developed_count: number;
}

const ORDER = {
  catalog: '(c.published_count + c.developed_count) DESC, c.id',
  name: 'catalog_fold(c.name), c.id',
  oldest: 'c.start_date ASC NULLS LAST, c.id',
  newest: 'c.start_date DESC NULLS LAST, c.id',
};

/** Recounts the games each company publishes and develops, from the games' arrays, in one statement each. */
export async function refreshCompanyCounts(knex: Knex): Promise<void> {
  await knex.raw(`
    UPDATE catalog_companies c SET published_count = coalesce(p.n, 0), developed_count = coalesce(d.n, 0)
    FROM catalog_companies c2
    LEFT JOIN (SELECT unnest(publisher_ids) AS id, count(*)::int AS n FROM games GROUP BY 1) p ON p.id = c2.id
    LEFT JOIN (SELECT unnest(developer_ids) AS id, count(*)::int AS n FROM games GROUP BY 1) d ON d.id = c2.id
    WHERE c.id = c2.id
      AND (c.published_count, c.developed_count) IS DISTINCT FROM (coalesce(p.n, 0), coalesce(d.n, 0))`);
}

export function presentCompany(row: CompanyRow) {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    status: row.status,
    founded_year: row.start_date ? new Date(row.start_date).getUTCFullYear() : null,
    published_games: row.published_count,
    developed_games: row.developed_count,
  };
}

export async function searchCompanies(knex: Knex, search: CompanySearch) {
  const where: string[] = [];
  const bindings: Knex.RawBinding[] = [];
  if (search.role === 'publisher') where.push('c.published_count > 0');
  if (search.role === 'developer') where.push('c.developed_count > 0');
  if (search.status === 'active') where.push("c.status = 'active'");
  const text = search.q?.trim();
  let order = ORDER[search.sort === 'relevance' || !search.sort ? 'catalog' : search.sort];
  const orderBindings: Knex.RawBinding[] = [];
  if (text) {
    const escaped = escapeLike(text);
    where.push('catalog_fold(c.name) LIKE catalog_fold(?)');
    bindings.push(`%${escaped}%`);
    if (!search.sort || search.sort === 'relevance') {
      order = `CASE WHEN catalog_fold(c.name) = catalog_fold(?) THEN 0 WHEN catalog_fold(c.name) LIKE catalog_fold(?) THEN 1
        WHEN catalog_fold(c.name) LIKE catalog_fold(?) THEN 2 ELSE 3 END, ${ORDER.catalog}`;
      orderBindings.push(text, `${escaped}%`, `% ${escaped}%`);
    }
  }
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const { limit, offset } = pageWindow(search.page, COMPANY_PAGE);
  const [{ rows }, counted] = await Promise.all([
    knex.raw<{ rows: CompanyRow[] }>(
      `SELECT c.* FROM catalog_companies c ${clause} ORDER BY ${order} LIMIT ? OFFSET ?`,
      [...bindings, ...orderBindings, limit, offset],
    ),
    knex.raw<{ rows: Array<{ n: number }> }>(`SELECT count(*)::int AS n FROM catalog_companies c ${clause}`, bindings),
  ]);
  return { data: rows.map(presentCompany), page: pageObject(search.page, COMPANY_PAGE, counted.rows[0].n) };
}
