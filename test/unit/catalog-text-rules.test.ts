// The text search's pure rules: which words are looked for once the text as typed found nothing, and how
// a page of a text in an order of its own is read.
import { expect } from 'chai';
import { orderedTextPlan } from '../../shared/catalog/game-text-search.js';
import { correctedNames, correctedWords, type SearchText, type TextWord } from '../../shared/catalog/title-words.js';

const word = (text: string, known: boolean, nearest: string | null = null): TextWord => ({
  word: text,
  known,
  nearest,
  names: known ? 10 : 0,
  nearestNames: nearest ? 5 : null,
});

describe('catalog text rules', () => {
  it('keeps known words, corrects unknown ones and drops those with no correction', () => {
    expect(correctedWords([word('legnd', false, 'legend'), word('of', true), word('zelda', true)])).to.deep.equal([
      'legend',
      'of',
      'zelda',
    ]);
    expect(correctedWords([word('qqzx', false), word('zeldda', false, 'zelda')])).to.deep.equal(['zelda']);
  });

  it('estimates the names of the corrected words by the rarest', () => {
    expect(correctedNames([word('legnd', false, 'legend'), word('zelda', true)])).to.equal(5);
    expect(correctedNames([word('of', true)].map((w) => ({ ...w, names: null })))).to.equal(null);
  });

  it('looks for nothing when no word an index can find is left', () => {
    expect(correctedWords([word('qqzx', false)])).to.deep.equal([]);
    expect(correctedWords([word('of', true), word('qqzx', false)])).to.deep.equal([]);
  });

  describe('the plan of a text in an order of its own', () => {
    const text = (names: number | null): SearchText => ({ folded: 'xyz', words: [], names, games: 300000 });
    const none = { sql: [], bindings: [] };

    it('reads a rare text’s matches first, whatever the page', () => {
      expect(orderedTextPlan(text(71), none, 1)).to.equal('matchesFirst');
      expect(orderedTextPlan(text(0), none, 1)).to.equal('matchesFirst');
      expect(orderedTextPlan(text(null), none, 1)).to.equal('matchesFirst');
    });

    it('walks the order for a common text on a shallow page only', () => {
      expect(orderedTextPlan(text(60000), none, 1)).to.equal('walk');
      expect(orderedTextPlan(text(60000), none, 100)).to.equal('walk');
      expect(orderedTextPlan(text(20000), none, 100)).to.equal('matchesFirst');
      expect(orderedTextPlan(text(9000), none, 1)).to.equal('walk');
      expect(orderedTextPlan(text(9000), none, 35)).to.equal('matchesFirst');
    });

    it('walks for a text too short for a trigram, being in a large share of names', () => {
      const short: SearchText = { folded: 'ff', words: [], names: null, games: 300000 };
      expect(orderedTextPlan(short, none, 100)).to.equal('walk');
    });

    it('never walks when another filter thins the matches out by an unknown share', () => {
      expect(orderedTextPlan(text(60000), { sql: ['g.demo_available'], bindings: [] }, 1)).to.equal('matchesFirst');
    });
  });
});
