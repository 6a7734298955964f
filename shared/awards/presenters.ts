// The JSON of awards (DECISIONS: Minerals and awards). Pure.
import type { Award } from './award-catalog.js';
import type { GivenAward } from './award-commands.js';

export function presentAward(award: Award) {
  return { id: award.id, name: award.name, cost: award.cost };
}

/** POST /awards: the award given, the thing's awards after it, and the giver's balance after paying. */
export function presentGivenAward(given: GivenAward) {
  return {
    on: given.on,
    id: given.id,
    award: given.award.id,
    award_name: given.award.name,
    cost: given.award.cost,
    author_credit: given.credit,
    awards: given.awards,
    balance: given.balance,
    created_at: given.created_at,
  };
}
