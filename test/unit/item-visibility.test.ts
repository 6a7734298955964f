// The per-item visibility rule, as a function and as SQL: both must say the same thing.
import { expect } from 'chai';
import { canSee, relationTo, visibleItems } from '../../shared/people/item-visibility.js';

describe('item visibility', () => {
  it('shows PUBLIC to anyone, FOLLOWERS to followers and the owner, PRIVATE to the owner', () => {
    expect(canSee('PUBLIC', 'other')).to.equal(true);
    expect(canSee('FOLLOWERS', 'other')).to.equal(false);
    expect(canSee('FOLLOWERS', 'follower')).to.equal(true);
    expect(canSee('PRIVATE', 'follower')).to.equal(false);
    expect(canSee('PRIVATE', 'owner')).to.equal(true);
  });

  it('turns the same rule into a condition with bindings', () => {
    expect(visibleItems('r', 'other')).to.deep.equal({ sql: 'r.visibility IN (?)', bindings: ['PUBLIC'] });
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
});
