// A person's journeys (runs through one game) as a reader sees them (spec: GET /profiles/{username}/journeys),
// newest first, each with its game shaped like `/games`. "A run is as visible as what is inside it and
// always to its author" (DECISIONS: the run is what is inside it): its own `visibility` decides, by the
// per-item rule the profile summary and year pages use for their journey counts; the sessions it holds count
// by theirs. A journey is presented as the owner's journal presents it (shared/journal), with the totals
// this reader may see.
import type { Knex } from 'knex';
import { AUTHOR_SEES, JOURNEY_COLUMNS, journeysAsShown } from '../journal/journey-reads.js';
import type { JourneyRow } from '../journal/rows.js';
import { pageObject, pageWindow, type PageSpec } from '../platform/paging/paging.js';
import { visibleItems, type ReaderRelation } from './item-visibility.js';

export const JOURNEY_PAGE = { defaultLimit: 24, maxLimit: 48, maxPage: 200 };

export interface JourneysQuery {
  page: number;
  limit: number;
}

export async function readJourneys(knex: Knex, ownerId: string, relation: ReaderRelation, query: JourneysQuery) {
  const spec: PageSpec = { size: query.limit, maxPage: JOURNEY_PAGE.maxPage };
  const { limit, offset } = pageWindow(query.page, spec);
  const visible = visibleItems('j', relation);
  const base = knex('journeys as j').where('j.account_id', ownerId).whereRaw(visible.sql, visible.bindings);
  const [rows, total] = await Promise.all([
    base
      .clone()
      .select(JOURNEY_COLUMNS)
      .orderBy([
        { column: 'j.created_at', order: 'desc' },
        { column: 'j.id', order: 'desc' },
      ])
      .limit(limit)
      .offset(offset) as Promise<JourneyRow[]>,
    base
      .clone()
      .first(knex.raw('count(*)::int AS total'))
      .then((row: { total: number }) => row.total),
  ]);
  // The sessions a run holds show by their own visibility; its author counts all of theirs.
  const seen = relation === 'owner' ? AUTHOR_SEES : { ...visibleItems('p', relation), author: false };
  return { data: await journeysAsShown(knex, rows, seen), page: pageObject(query.page, spec, total) };
}
