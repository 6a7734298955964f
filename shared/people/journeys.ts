// A person's journeys (runs through one game) as a reader sees them (spec: GET /profiles/{username}/journeys),
// newest first, each with its game shaped like `/games`. "A run is as visible as what is inside it and
// always to its author" (DECISIONS: the run is what is inside it): its own `visibility` decides, by the
// per-item rule the profile summary and year pages use for their journey counts; the sessions it holds count
// by theirs. A journey is presented as the owner's journal presents it (shared/journal), with the totals
// this reader may see.
import type { Knex } from 'knex';
import { AUTHOR_SEES, pageOfJourneys, type JourneyQuery } from '../journal/journey-reads.js';
import { visibleItems, type ReaderRelation } from './item-visibility.js';

/** The same pages as the owner's journal. */
export { JOURNEY_PAGE } from '../journal/rows.js';
export type { JourneyQuery as JourneysQuery } from '../journal/journey-reads.js';

export function readJourneys(knex: Knex, ownerId: string, relation: ReaderRelation, query: JourneyQuery) {
  const visible = visibleItems('j', relation);
  const base = knex('journeys as j').where('j.account_id', ownerId).whereRaw(visible.sql, visible.bindings);
  // The sessions a run holds show by their own visibility; its author counts all of theirs.
  const seen = relation === 'owner' ? AUTHOR_SEES : { ...visibleItems('p', relation), author: false };
  return pageOfJourneys(knex, base, query, seen);
}
