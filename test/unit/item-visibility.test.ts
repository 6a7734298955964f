// The per-item visibility rule, as a function and as SQL: both must say the same thing.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import {
  canSee,
  canSeeSql,
  ITEM_VISIBILITIES,
  relationSql,
  relationTo,
  visibleItems,
} from '../../shared/people/item-visibility.js';
import { seesInFull } from '../../shared/people/visibility.js';

describe('item visibility', () => {
  it('shows PUBLIC to anyone, FOLLOWERS to followers and the owner, PRIVATE to the owner', () => {
    expect(canSee('PUBLIC', 'other')).to.equal(true);
    expect(canSee('FOLLOWERS', 'other')).to.equal(false);
    expect(canSee('FOLLOWERS', 'follower')).to.equal(true);
    expect(canSee('PRIVATE', 'follower')).to.equal(false);
    expect(canSee('PRIVATE', 'owner')).to.equal(true);
  });

  it('turns the same rule into a condition with bindings', () => {
    expect(visibleItems('r', 'other')).to.deep.equal({
      sql: '(r.visibility IN (?) AND r.removed_at IS NULL)',
      bindings: ['PUBLIC'],
    });
    expect(visibleItems('r', 'follower').bindings).to.deep.equal(['PUBLIC', 'FOLLOWERS']);
    expect(visibleItems('r', 'owner').bindings).to.deep.equal(['PUBLIC', 'FOLLOWERS', 'PRIVATE']);
    expect(() => visibleItems('r; DROP TABLE x', 'owner')).to.throw();
  });

  it('names the reader’s relation: the owner first, then a follower, anyone else (anonymous too)', () => {
    expect(relationTo('a', 'a', false)).to.equal('owner');
    expect(relationTo('b', 'a', true)).to.equal('follower');
    expect(relationTo('b', 'a', false)).to.equal('other');
    expect(relationTo(null, 'a', false)).to.equal('other');
  });

  it('says the same in SQL as in code, for libraries and items, for every reader and visibility', async () => {
    const owner = '11111111-1111-1111-1111-111111111111';
    const other = '22222222-2222-2222-2222-222222222222';
    const cases = ITEM_VISIBILITIES.flatMap((visibility) =>
      [owner, other, null].flatMap((reader) => [true, false].map((follows) => ({ visibility, reader, follows }))),
    );
    for (const { visibility, reader, follows } of cases) {
      const relation = relationSql('CAST(:reader AS uuid)', 'CAST(:owner AS uuid)', 'CAST(:follows AS boolean)');
      const { rows } = await db().raw<{ rows: Array<{ seen: boolean; relation: string }> }>(
        `SELECT ${canSeeSql(':visibility', relation)} AS seen, ${relation} AS relation`,
        { reader: reader ?? '00000000-0000-0000-0000-000000000000', owner, follows, visibility },
      );
      const expected = relationTo(reader, owner, follows);
      expect(rows[0].relation, JSON.stringify({ reader, follows })).to.equal(expected);
      expect(rows[0].seen, JSON.stringify({ visibility, reader, follows })).to.equal(canSee(visibility, expected));
      expect(seesInFull({ accountId: reader }, owner, visibility, follows)).to.equal(canSee(visibility, expected));
    }
  });
});
