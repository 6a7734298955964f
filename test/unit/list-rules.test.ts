// The pure rules of lists (DECISIONS: Lists; Refusals), table by table: which items a list may hold and the
// place each refusal names, what a mode or board change does to the games already placed, the labels a list
// shows, and who sees one list.
import { expect } from 'chai';
import { isApiError } from '../../shared/platform/errors.js';
import {
  boardOf,
  changeBoard,
  refuseBlank,
  refuseItems,
  refuseItemsInPatch,
  refuseTiers,
} from '../../shared/lists/list-rules.js';
import type { ListItemInput, ListMode } from '../../shared/lists/rows.js';
import {
  answerKeepable as listAnswerKeepable,
  thingSeenBy as listSeenBy,
} from '../../shared/people/item-visibility.js';

const AUTHOR = 'a0000000-0000-4000-8000-000000000001';
const OTHER = 'a0000000-0000-4000-8000-000000000002';
const TIERS = ['S', 'A', 'B', 'C', 'D'];

/** The field a rule refuses with `fields_invalid`, or null when it passes. */
function refusedField(rule: () => void): string | null {
  try {
    rule();
    return null;
  } catch (error) {
    if (!isApiError(error)) throw error;
    expect(error.members.reason).to.equal('fields_invalid');
    return error.members.field ?? null;
  }
}

describe('list rules', () => {
  describe('refuseItems', () => {
    const known = new Set([1, 2, 3]);
    const cases: Array<[string, ListItemInput[], ListMode, string | null]> = [
      ['an empty list', [], 'list', null],
      ['games of a plain list', [{ game_id: 1 }, { game_id: 2 }], 'list', null],
      ['games of a ranked list', [{ game_id: 3 }, { game_id: 1 }], 'ranked', null],
      [
        'games in tiers',
        [
          { game_id: 1, tier: 'S' },
          { game_id: 2, tier: 'S' },
          { game_id: 3, tier: 'D' },
        ],
        'tier',
        null,
      ],
      ['an unknown game', [{ game_id: 1 }, { game_id: 9 }], 'list', 'items.1.game_id'],
      ['a game placed twice', [{ game_id: 1 }, { game_id: 2 }, { game_id: 1 }], 'ranked', 'items.2.game_id'],
      [
        'a repeat in a tier list, other tier',
        [
          { game_id: 2, tier: 'S' },
          { game_id: 2, tier: 'A' },
        ],
        'tier',
        'items.1.game_id',
      ],
      ['a tier in a plain list', [{ game_id: 1 }, { game_id: 2, tier: 'S' }], 'list', 'items.1.tier'],
      ['a tier in a ranked list', [{ game_id: 1, tier: 'S' }], 'ranked', 'items.0.tier'],
      ['no tier in a tier list', [{ game_id: 1, tier: 'S' }, { game_id: 2 }], 'tier', 'items.1.tier'],
      ['a tier the board lacks', [{ game_id: 1, tier: 'E' }], 'tier', 'items.0.tier'],
      ['a tier in another case', [{ game_id: 1, tier: 's' }], 'tier', 'items.0.tier'],
      // The first item refused is named, whatever its fault.
      [
        'the first fault first',
        [
          { game_id: 1, tier: 'X' },
          { game_id: 9, tier: 'S' },
        ],
        'tier',
        'items.0.tier',
      ],
      ['an unknown game before its tier', [{ game_id: 9, tier: 'X' }], 'tier', 'items.0.game_id'],
    ];
    for (const [label, items, mode, field] of cases) {
      it(`${field ? 'refuses' : 'takes'} ${label}`, () => {
        const board = boardOf(mode, mode === 'tier' ? TIERS : null);
        expect(refusedField(() => refuseItems(items, mode, board, known))).to.equal(field);
      });
    }
  });

  describe('the board', () => {
    it('shows a tier list’s labels, the default when it has none, and none on other modes', () => {
      expect(boardOf('tier', ['Top', 'Meh'])).to.deep.equal(['Top', 'Meh']);
      expect(boardOf('tier', null)).to.deep.equal(TIERS);
      expect(boardOf('list', ['S'])).to.equal(null);
      expect(boardOf('ranked', null)).to.equal(null);
    });

    it('takes labels only for a tier list, each saying something', () => {
      expect(refusedField(() => refuseTiers('tier', ['S', 'A']))).to.equal(null);
      expect(refusedField(() => refuseTiers('list', undefined))).to.equal(null);
      expect(refusedField(() => refuseTiers('list', ['S']))).to.equal('tiers');
      expect(refusedField(() => refuseTiers('ranked', ['S']))).to.equal('tiers');
      expect(refusedField(() => refuseTiers('tier', ['S', ' \u3000\n']))).to.equal('tiers.1');
    });

    const cases: Array<
      [string, { mode: ListMode; tiers: string[] | null }, { mode?: ListMode; tiers?: string[] }, unknown]
    > = [
      [
        'nothing of the board',
        { mode: 'list', tiers: null },
        {},
        { mode: 'list', tiers: null, dropTiers: false, moves: [] },
      ],
      [
        'list to ranked',
        { mode: 'list', tiers: null },
        { mode: 'ranked' },
        { mode: 'ranked', tiers: null, dropTiers: false, moves: [] },
      ],
      [
        'tier to list: the tiers go',
        { mode: 'tier', tiers: ['S', 'A'] },
        { mode: 'list' },
        { mode: 'list', tiers: null, dropTiers: true, moves: [] },
      ],
      [
        'list to tier: every game in the first default tier',
        { mode: 'list', tiers: null },
        { mode: 'tier' },
        { mode: 'tier', tiers: TIERS, dropTiers: false, moves: [{ from: null, to: 'S' }] },
      ],
      [
        'ranked to tier with labels: the first one',
        { mode: 'ranked', tiers: null },
        { mode: 'tier', tiers: ['Top', 'Low'] },
        { mode: 'tier', tiers: ['Top', 'Low'], dropTiers: false, moves: [{ from: null, to: 'Top' }] },
      ],
      [
        'a tier renamed keeps its games',
        { mode: 'tier', tiers: ['S', 'A', 'B'] },
        { tiers: ['S', 'A+', 'B'] },
        { mode: 'tier', tiers: ['S', 'A+', 'B'], dropTiers: false, moves: [{ from: 'A', to: 'A+' }] },
      ],
      [
        'a shorter board: the lost tiers fall into the last',
        { mode: 'tier', tiers: ['S', 'A', 'B', 'C'] },
        { tiers: ['S', 'A'] },
        {
          mode: 'tier',
          tiers: ['S', 'A'],
          dropTiers: false,
          moves: [
            { from: 'B', to: 'A' },
            { from: 'C', to: 'A' },
          ],
        },
      ],
      [
        'labels reordered move nothing',
        { mode: 'tier', tiers: ['S', 'A'] },
        { tiers: ['A', 'S'] },
        { mode: 'tier', tiers: ['A', 'S'], dropTiers: false, moves: [] },
      ],
      [
        'a tier list of no labels yet has the default board',
        { mode: 'tier', tiers: null },
        { tiers: ['X', 'A'] },
        {
          mode: 'tier',
          tiers: ['X', 'A'],
          dropTiers: false,
          moves: [
            { from: 'S', to: 'X' },
            { from: 'B', to: 'A' },
            { from: 'C', to: 'A' },
            { from: 'D', to: 'A' },
          ],
        },
      ],
    ];
    for (const [label, current, sent, expected] of cases) {
      it(`changes ${label}`, () => {
        expect(changeBoard(current, sent)).to.deep.equal(expected);
      });
    }

    it('refuses labels for a list that is not, or no longer, a tier list', () => {
      expect(refusedField(() => changeBoard({ mode: 'list', tiers: null }, { tiers: ['S'] }))).to.equal('tiers');
      expect(
        refusedField(() => changeBoard({ mode: 'tier', tiers: TIERS }, { mode: 'ranked', tiers: ['S'] })),
      ).to.equal('tiers');
    });
  });

  describe('texts and patches', () => {
    it('refuses a text of white space alone, naming its field', () => {
      expect(refusedField(() => refuseBlank('title', 'Top 10'))).to.equal(null);
      expect(refusedField(() => refuseBlank('title', undefined))).to.equal(null);
      expect(refusedField(() => refuseBlank('title', ' \t\n\u00a0'))).to.equal('title');
      expect(refusedField(() => refuseBlank('name', ''))).to.equal('name');
    });

    it('refuses items in a patch as not allowed there', () => {
      expect(() => refuseItemsInPatch({ title: 'x' })).not.to.throw();
      try {
        refuseItemsInPatch({ items: [] });
        expect.fail('items were taken');
      } catch (error) {
        expect(isApiError(error) && error.members).to.include({ field: 'items', reason: 'not_allowed' });
      }
    });
  });

  describe('listSeenBy', () => {
    const reader = (id: string | null, follows = false, blocked = false) => ({ id, follows, blocked });
    const cases: Array<[string, 'PUBLIC' | 'FOLLOWERS' | 'PRIVATE', boolean, ReturnType<typeof reader>, boolean]> = [
      ['the author, private', 'PRIVATE', false, reader(AUTHOR), true],
      ['the author, removed', 'PUBLIC', true, reader(AUTHOR), true],
      ['anyone, public', 'PUBLIC', false, reader(null), true],
      ['a stranger, public', 'PUBLIC', false, reader(OTHER), true],
      ['a stranger, followers', 'FOLLOWERS', false, reader(OTHER), false],
      ['a follower, followers', 'FOLLOWERS', false, reader(OTHER, true), true],
      ['a follower, private', 'PRIVATE', false, reader(OTHER, true), false],
      ['anyone, removed', 'PUBLIC', true, reader(null), false],
      ['a follower, removed', 'FOLLOWERS', true, reader(OTHER, true), false],
      ['a blocked follower, public', 'PUBLIC', false, reader(OTHER, true, true), false],
    ];
    for (const [label, visibility, removed, who, seen] of cases) {
      it(`${seen ? 'shows' : 'hides'} a list to ${label}`, () => {
        expect(listSeenBy({ authorId: AUTHOR, visibility, removed }, who)).to.equal(seen);
      });
    }

    it('lets a browser keep only an anonymous read of a public list', () => {
      expect(listAnswerKeepable('PUBLIC', null)).to.equal(true);
      expect(listAnswerKeepable('PUBLIC', OTHER)).to.equal(false);
      expect(listAnswerKeepable('FOLLOWERS', null)).to.equal(false);
    });
  });
});
