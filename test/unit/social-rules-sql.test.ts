// The rules of likes and comments as their one-statement writes say them in SQL (like-statements.ts,
// comment-statements.ts), held equal to the pure rules in code for every case: who sees a thing
// (subjectSeenSql against subjectSeenBy) and who joins a profile's conversation (conversationOpenSql
// against conversationOpen).
import { expect } from 'chai';
import { conversationOpen, conversationOpenSql } from '../../shared/comments/comment-rules.js';
import {
  ITEM_VISIBILITIES,
  relationSql,
  relationTo,
  type ReaderRelation,
} from '../../shared/people/item-visibility.js';
import { NOBODY } from '../../shared/people/visibility.js';
import { db } from '../../shared/platform/db/knex.js';
import { subjectSeenBy, subjectSeenSql } from '../../shared/social/subjects.js';

const OWNER = 'a0000000-0000-4000-8000-000000000001';
const OTHER = 'a0000000-0000-4000-8000-000000000002';

describe('social rules in SQL', () => {
  it('sees a thing in SQL exactly when subjectSeenBy does, for every reader, visibility, removal and block', async () => {
    const cases = ITEM_VISIBILITIES.flatMap((visibility) =>
      [OWNER, OTHER, null].flatMap((reader) =>
        [true, false].flatMap((removed) =>
          [true, false].flatMap((follows) =>
            [true, false].map((blocked) => ({ visibility, reader, removed, follows, blocked })),
          ),
        ),
      ),
    );
    const seen = subjectSeenSql({
      reader: 'CAST(:reader AS uuid)',
      owner: 'CAST(:owner AS uuid)',
      visibility: 'CAST(:visibility AS text)',
      removed: 'CAST(:removed AS boolean)',
      follows: 'CAST(:follows AS boolean)',
      blocked: 'CAST(:blocked AS boolean)',
    });
    let shown = 0;
    for (const { visibility, reader, removed, follows, blocked } of cases) {
      const { rows } = await db().raw<{ rows: Array<{ seen: boolean }> }>(`SELECT ${seen} AS seen`, {
        reader: reader ?? NOBODY,
        owner: OWNER,
        visibility,
        removed,
        follows,
        blocked,
      });
      const expected = subjectSeenBy({ ownerId: OWNER, visibility, removed }, { id: reader, follows, blocked });
      expect(rows[0].seen, JSON.stringify({ visibility, reader, removed, follows, blocked })).to.equal(expected);
      if (expected) shown += 1;
    }
    // Both answers occur: the table is not all one way.
    expect(shown).to.be.within(1, cases.length - 1);
  });

  it('opens a profile’s conversation in SQL exactly when conversationOpen does', async () => {
    const relation = relationSql('CAST(:reader AS uuid)', 'CAST(:owner AS uuid)', 'CAST(:follows AS boolean)');
    const sql = `SELECT ${conversationOpenSql('CAST(:visibility AS text)', relation)} AS open, ${relation} AS relation`;
    const seenRelations = new Set<ReaderRelation>();
    for (const visibility of ITEM_VISIBILITIES) {
      for (const reader of [OWNER, OTHER, null]) {
        for (const follows of [true, false]) {
          const { rows } = await db().raw<{ rows: Array<{ open: boolean; relation: ReaderRelation }> }>(sql, {
            reader: reader ?? NOBODY,
            owner: OWNER,
            follows,
            visibility,
          });
          const expected = relationTo(reader, OWNER, follows);
          seenRelations.add(expected);
          expect(rows[0].relation).to.equal(expected);
          expect(rows[0].open, JSON.stringify({ visibility, reader, follows })).to.equal(
            conversationOpen(visibility, expected),
          );
        }
      }
    }
    expect([...seenRelations].sort()).to.deep.equal(['follower', 'other', 'owner']);
  });
});
