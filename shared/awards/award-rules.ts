// The rules of awards that need no database (DECISIONS: Minerals and awards): what can be awarded, and the
// refusals a giving can meet, in the order they are judged (what the giver may see, their own thing, an
// award they gave already, then the price).
import { conflict, invalidRequest } from '../platform/errors.js';
import type { SubjectKind } from '../social/subjects.js';

/** What POST /awards names in `on` (diary sessions and profiles take comments, not awards). */
export const AWARD_TARGETS = ['REVIEW', 'LIST', 'SCREENSHOT', 'JOURNEY'] as const satisfies readonly SubjectKind[];
export type AwardTarget = (typeof AWARD_TARGETS)[number];

/** What `POST /awards` takes. */
export interface AwardInput {
  on: AwardTarget;
  id: string;
  award: string;
}

/** Pure: nobody awards their own thing (400 `own_content`, judged before the price). */
export function refuseOwnContent(ownerId: string, giverId: string): void {
  if (ownerId === giverId) throw invalidRequest('You cannot award what you posted.', { reason: 'own_content' });
}

export function alreadyAwarded() {
  return conflict('already_awarded', {}, 'You gave this award to this thing already.');
}

/** Pure: the giver can pay, or 409 `insufficient_minerals` with what they have and what it costs. */
export function refuseUnpaid(balance: number, cost: number): void {
  if (balance < cost) {
    throw conflict(
      'insufficient_minerals',
      { balance, cost },
      `This award costs ${cost} minerals; you have ${balance}.`,
    );
  }
}
