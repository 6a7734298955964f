// The reference's words for awards (DECISIONS: Minerals and awards).
import { doc, type ErrorRef } from '../../openapi/route-facts.js';
import { AWARD_ANSWERS } from '../../openapi/shapes/wallet.js';
import { AWARDS } from '../../../shared/awards/award-catalog.js';
import { presentAward } from '../../../shared/awards/presenters.js';

const REFUSED: ErrorRef[] = [
  'not_found:review_not_found',
  'not_found:list_not_found',
  'not_found:screenshot_not_found',
  'not_found:journey_not_found',
  'invalid_request:own_content',
  'conflict:already_awarded',
  'conflict:insufficient_minerals',
];

export const AWARD_DOCS = {
  catalog: doc({
    summary: 'The awards',
    description:
      'The eight awards anyone may give a review, list, screenshot or journey for minerals, cheapest first. The giver pays `cost`; the thing’s author receives a fifth of it, rounded down.',
    headers: { 'Cache-Control': '`public, max-age=3600`: the catalog changes only with a release.' },
    response: AWARD_ANSWERS.catalog,
    example: { data: AWARDS.map(presentAward) },
  }),
  give: doc({
    summary: 'Give an award',
    description:
      '`on` is REVIEW, LIST, SCREENSHOT or JOURNEY and `id` the thing’s id (the public id of a list or screenshot); `award` one of `GET /awards/catalog` (any other is 400 field `award`). In one transaction: you pay the cost, the author receives a fifth of it (rounded down; outside their daily cap), the thing counts it in `awards` and its author is notified (kind `award`). Only what you may see (its visibility, a block either way, moderation’s removal), else 404 with the kind’s reason; your own thing is 400 `own_content` (judged before your balance); one award of each kind per giver and thing (409 `already_awarded`); a balance short of the cost is 409 `insufficient_minerals` with your `balance` and the `cost`. Answers the award, the thing’s `awards` and your `balance` after paying. Deleting the thing removes its awards from view and refunds nobody.',
    errors: REFUSED,
    status: 201,
    response: AWARD_ANSWERS.given,
    example: {
      data: {
        on: 'REVIEW',
        id: '3f6b9c2e-8d41-4a7e-b0c5-9e2d7a1f4b63',
        award: 'masterpiece',
        award_name: 'Masterpiece',
        cost: 1000,
        author_credit: 200,
        awards: { masterpiece: 3, gg: 1 },
        balance: 1420,
        created_at: '2026-11-24T21:14:08.512345Z',
      },
    },
  }),
};
