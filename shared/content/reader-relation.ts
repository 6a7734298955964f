// What a reader is to a thing's author, selected beside the thing's row: whether the reader follows the
// author, and whether either blocks the other (people/item-visibility.ts decides with both). One read of a
// thing answers who may see it, with no second round trip.
import { raw } from 'objection';

/** `follows` and `blocked` of `readerId` (NOBODY when anonymous) and the author in `authorColumn`. */
export function readerRelationSelects(authorColumn: string, readerId: string) {
  return [
    raw(`EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ? AND f.followee_id = ${authorColumn}) AS follows`, [
      readerId,
    ]),
    raw(
      `EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = ? AND b.blocked_id = ${authorColumn})
         OR (b.blocker_id = ${authorColumn} AND b.blocked_id = ?)) AS blocked`,
      [readerId, readerId],
    ),
  ];
}
