import { expect } from 'chai';
import { ExpiringMap } from '../../shared/platform/expiring-map.js';

describe('a short memory of values (search totals, DNS answers)', () => {
  it('remembers a total for its time to live, then forgets it', () => {
    const cache = new ExpiringMap<number>(60_000, 10);
    cache.set('a', 5, 1000);
    expect(cache.get('a', 60_999)).to.equal(5);
    expect(cache.get('a', 61_000)).to.equal(undefined);
    expect(cache.get('missing', 1000)).to.equal(undefined);
  });

  it('lets the oldest entry go when full', () => {
    const cache = new ExpiringMap<number>(60_000, 2);
    cache.set('a', 1, 0);
    cache.set('b', 2, 0);
    cache.set('c', 3, 0);
    expect([cache.get('a', 1), cache.get('b', 1), cache.get('c', 1)]).to.deep.equal([undefined, 2, 3]);
  });

  it('keeps one entry per key: setting it again renews its time and makes it the newest', () => {
    const cache = new ExpiringMap<number>(60_000, 2);
    cache.set('a', 1, 0);
    cache.set('b', 2, 0);
    cache.set('a', 10, 50_000);
    cache.set('c', 3, 50_000);
    expect([cache.get('a', 100_000), cache.get('b', 1), cache.get('c', 1)]).to.deep.equal([10, undefined, 3]);
    cache.delete('a');
    expect(cache.get('a', 100_000)).to.equal(undefined);
  });
});
