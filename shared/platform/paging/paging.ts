// Numbered pages: `?page=` from 1 to a route's last page (1000 unless the route says less, e.g. the
// catalog's 100), a per-route page size, and the `page` object every collection answer carries.
import type { SchemaObject } from '../validation/ajv.js';

export const MAX_PAGE = 1000;

export interface PageSpec {
  size: number;
  maxPage?: number;
}

export interface PageObject {
  number: number;
  size: number;
  total_items: number;
  total_pages: number;
  has_more: boolean;
}

/** The schema of the `page` query parameter: an integer from 1 to the route's last page, default 1. */
export function pageParameter(maxPage = MAX_PAGE): SchemaObject {
  return { type: 'integer', minimum: 1, maximum: maxPage, default: 1 };
}

/** The rows to read for page `number`. */
export function pageWindow(number: number, spec: PageSpec): { limit: number; offset: number } {
  return { limit: spec.size, offset: (number - 1) * spec.size };
}

/**
 * `has_more` comes from the total, never from the length of `data`. `total_pages` counts the pages a client
 * may ask for: past the route's last page there are more items (`total_items` says how many) but no page of
 * them, so the last page says `has_more` false.
 */
export function pageObject(number: number, spec: PageSpec, totalItems: number): PageObject {
  const totalPages = Math.min(Math.ceil(totalItems / spec.size), spec.maxPage ?? MAX_PAGE);
  return {
    number,
    size: spec.size,
    total_items: totalItems,
    total_pages: totalPages,
    has_more: number < totalPages,
  };
}

/**
 * The `page` of a collection answered whole, on one page (the account's apps, keys, sessions and
 * identities: DECISIONS, Fine print): the page holds every item, so `size` is the count; like any other
 * collection, an empty one has no pages.
 */
export function onePage(totalItems: number): PageObject {
  return {
    number: 1,
    size: totalItems,
    total_items: totalItems,
    total_pages: totalItems > 0 ? 1 : 0,
    has_more: false,
  };
}

/**
 * The `page` of a collection read by `offset` and `limit` rather than `?page=` (a person's lists): pages
 * hold `limit` items, `number` is the page `offset` falls in, and `has_more` is false once the next offset
 * would pass `maxOffset`, the last one a client may ask for.
 */
export function offsetPage(offset: number, limit: number, totalItems: number, maxOffset: number): PageObject {
  const next = offset + limit;
  return {
    number: Math.floor(offset / limit) + 1,
    size: limit,
    total_items: totalItems,
    total_pages: Math.ceil(totalItems / limit),
    has_more: next < totalItems && next <= maxOffset,
  };
}
