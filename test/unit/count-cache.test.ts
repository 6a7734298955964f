import { expect } from 'chai';
import { CountCache } from '../../shared/catalog/count-cache.js';

describe('the search total cache', () => {
  it('remembers a total for its time to live, then forgets it', () => {
    const cache = new CountCache(60_000, 10);
    cache.set('a', 5, 1000);
    expect(cache.get('a', 60_999)).to.equal(5);
    expect(cache.get('a', 61_000)).to.equal(undefined);
    expect(cache.get('missing', 1000)).to.equal(undefined);
  });

  it('lets the oldest entry go when full', () => {
    const cache = new CountCache(60_000, 2);
    cache.set('a', 1, 0);
    cache.set('b', 2, 0);
    cache.set('c', 3, 0);
    expect([cache.get('a', 1), cache.get('b', 1), cache.get('c', 1)]).to.deep.equal([undefined, 2, 3]);
  });
});
