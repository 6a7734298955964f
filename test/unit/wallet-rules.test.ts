// The rules of minerals and awards that need no database (DECISIONS: Minerals and awards): levels from
// lifetime earnings, the award catalog, the author's fifth, and the refusals of a giving.
import { expect } from 'chai';
import { authorCredit, AWARDS, awardById } from '../../shared/awards/award-catalog.js';
import { refuseOwnContent, refuseUnpaid } from '../../shared/awards/award-rules.js';
import { isApiError } from '../../shared/platform/errors.js';
import { levelFor, nextLevelAt } from '../../shared/wallet/level-rules.js';

describe('mineral levels', () => {
  const table: Array<[number, number]> = [
    [-5, 1],
    [0, 1],
    [1, 1],
    [99, 1],
    [100, 2],
    [299, 2],
    [300, 3],
    [599, 3],
    [600, 4],
    [999, 4],
    [1000, 5],
    [1499, 5],
    [1500, 6],
    [2099, 6],
    [2100, 7],
    [4499, 9],
    [4500, 10],
    [5000, 10],
    [495_000, 100],
    [494_999, 99],
  ];
  for (const [lifetime, level] of table) {
    it(`is ${level} at ${lifetime} lifetime minerals`, () => expect(levelFor(lifetime)).to.equal(level));
  }

  it('names the lifetime of each next level: 100, 300, 600, 1000, each step 100 more', () => {
    expect([1, 2, 3, 4, 5, 6].map(nextLevelAt)).to.deep.equal([100, 300, 600, 1000, 1500, 2100]);
    for (let level = 1; level < 300; level += 1) {
      expect(levelFor(nextLevelAt(level)), `at ${nextLevelAt(level)}`).to.equal(level + 1);
      expect(levelFor(nextLevelAt(level) - 1), `below ${nextLevelAt(level)}`).to.equal(level);
    }
  });
});

describe('the award catalog', () => {
  it('holds eight awards with distinct ids, costing 100 to 2000, cheapest first', () => {
    expect(AWARDS).to.have.length(8);
    expect(new Set(AWARDS.map((award) => award.id)).size).to.equal(8);
    const costs = AWARDS.map((award) => award.cost);
    expect(costs).to.deep.equal([...costs].sort((a, b) => a - b));
    expect(Math.min(...costs)).to.equal(100);
    expect(Math.max(...costs)).to.equal(2000);
    for (const award of AWARDS) expect(award.id).to.match(/^[a-z][a-z_]*$/);
    expect(awardById('gg')?.name).to.equal('GG');
    expect(awardById('nope')).to.equal(undefined);
  });

  it('credits the author a fifth of the cost, rounded down', () => {
    expect([100, 150, 250, 999, 1000, 2000, 4].map(authorCredit)).to.deep.equal([20, 30, 50, 199, 200, 400, 0]);
  });
});

describe('the refusals of giving an award', () => {
  const refusal = (run: () => void) => {
    try {
      run();
    } catch (error) {
      if (!isApiError(error)) throw error;
      return { status: error.status, ...error.members };
    }
    return null;
  };

  it('refuses one’s own thing with 400 own_content, and lets anyone else give', () => {
    expect(refusal(() => refuseOwnContent('a', 'a'))).to.deep.equal({ status: 400, reason: 'own_content' });
    expect(refusal(() => refuseOwnContent('a', 'b'))).to.equal(null);
  });

  it('refuses a price above the balance with 409 insufficient_minerals naming both, and takes an exact one', () => {
    expect(refusal(() => refuseUnpaid(99, 100))).to.deep.equal({
      status: 409,
      reason: 'insufficient_minerals',
      balance: 99,
      cost: 100,
    });
    expect(refusal(() => refuseUnpaid(100, 100))).to.equal(null);
  });
});
