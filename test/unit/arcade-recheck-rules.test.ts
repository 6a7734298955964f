// The rules of the service's watch over live games: which games it may change, when each is checked next
// (spread over the day by its id), and what one check of the live release does to the game.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import {
  moveAfterCheck,
  nextRecheckAt,
  nextSlot,
  observedProvider,
  slotOffsetSeconds,
  watchOf,
  type CheckFacts,
  type GameState,
} from '../../shared/arcade/recheck-rules.js';

const HOUR = 3600_000;
const APP = '5d0c7a52-7a51-4c57-9f53-0a8b1c1d2e3f';
const NOW = new Date('2026-11-25T10:00:00.000Z');

const open: GameState = { status: 'listed', notice_kind: null, notice_reason: null };
const hidden = (reason: string): GameState => ({ status: 'hidden', notice_kind: 'hidden', notice_reason: reason });
const secondsOfDay = (at: Date) => (at.getTime() % (24 * HOUR)) / 1000;

describe('Arcade re-check rules', () => {
  describe('watchOf', () => {
    const cases: Array<[string, GameState, ReturnType<typeof watchOf>]> = [
      ['a listed game without a notice', open, 'open'],
      ['a game hidden because its checks failed', hidden('invariant'), 'invariant'],
      ['a game hidden for a provider change', hidden('provider_change'), null],
      ['a game reports hid', hidden('reports'), null],
      ['a flagged game', { status: 'listed', notice_kind: 'flagged', notice_reason: null }, null],
      ['a suspended game', { status: 'suspended', notice_kind: 'suspended', notice_reason: 'x' }, null],
      ['a draft game', { status: 'draft', notice_kind: null, notice_reason: null }, null],
      ['a removed game', { status: 'removed', notice_kind: null, notice_reason: null }, null],
    ];
    for (const [name, game, watch] of cases) {
      it(`${name}: ${watch}`, () => expect(watchOf(game)).to.equal(watch));
    }
  });

  describe('the daily time of each game', () => {
    it('is stable per game and spread over the whole day', () => {
      expect(slotOffsetSeconds(APP)).to.equal(slotOffsetSeconds(APP));
      const hours = new Set<number>();
      for (let i = 0; i < 500; i += 1) {
        const offset = slotOffsetSeconds(randomUUID());
        expect(offset).to.be.within(0, 86_399);
        hours.add(Math.floor(offset / 3600));
      }
      expect(hours.size).to.equal(24);
    });

    it('falls at the game’s time of day, today or tomorrow', () => {
      const slot = nextSlot(APP, NOW);
      expect(secondsOfDay(slot)).to.equal(slotOffsetSeconds(APP));
      expect(slot.getTime() - NOW.getTime()).to.be.within(0, 24 * HOUR - 1);
      expect(nextSlot(APP, slot).getTime()).to.equal(slot.getTime());
    });
  });

  describe('nextRecheckAt', () => {
    it('checks a passing open game at its time of day, at least 12 hours on', () => {
      const next = nextRecheckAt(APP, NOW, true, null);
      expect(secondsOfDay(next)).to.equal(slotOffsetSeconds(APP));
      expect(next.getTime() - NOW.getTime()).to.be.within(12 * HOUR, 36 * HOUR - 1);
    });

    it('confirms a failure within the hour', () => {
      expect(nextRecheckAt(APP, NOW, false, null).getTime()).to.equal(NOW.getTime() + HOUR);
    });

    it('checks a game hidden for invariant hourly for a day, then daily; a pass is confirmed within the hour', () => {
      const hiddenAt = new Date(NOW.getTime() - 2 * HOUR);
      expect(nextRecheckAt(APP, NOW, false, hiddenAt).getTime()).to.equal(NOW.getTime() + HOUR);
      const longAgo = new Date(NOW.getTime() - 25 * HOUR);
      expect(secondsOfDay(nextRecheckAt(APP, NOW, false, longAgo))).to.equal(slotOffsetSeconds(APP));
      expect(nextRecheckAt(APP, NOW, true, longAgo).getTime()).to.equal(NOW.getTime() + HOUR);
    });
  });

  describe('observedProvider', () => {
    it('names the provider only when the entry answered', () => {
      expect(observedProvider({ status_code: 200, provider: 'netlify' })).to.equal('netlify');
      expect(observedProvider({ status_code: 500, provider: 'unknown' })).to.equal('unknown');
      expect(observedProvider({ status_code: null, provider: 'unknown' })).to.equal(null);
    });
  });

  describe('moveAfterCheck', () => {
    const facts = (over: Partial<CheckFacts>): CheckFacts => ({
      recent: [true, true],
      provider: 'netlify',
      pinned: 'netlify',
      moderatorHid: false,
      ...over,
    });
    const cases: Array<[string, GameState, Partial<CheckFacts>, ReturnType<typeof moveAfterCheck>]> = [
      ['one failure leaves an open game alone', open, { recent: [false, true] }, null],
      ['a first check that failed leaves it alone', open, { recent: [false] }, null],
      ['two failures in a row hide it', open, { recent: [false, false] }, { kind: 'hide', reason: 'invariant' }],
      ['two passes leave an open game as it is', open, {}, null],
      ['another provider hides it', open, { provider: 'vercel' }, { kind: 'hide', reason: 'provider_change' }],
      [
        'another provider outweighs two failures',
        open,
        { provider: 'vercel', recent: [false, false] },
        { kind: 'hide', reason: 'provider_change' },
      ],
      ['an unanswered check says nothing of the provider', open, { provider: null, recent: [false, true] }, null],
      ['nothing pinned yet: no provider change', open, { pinned: null, provider: 'vercel' }, null],
      ['two passes bring back a game hidden for invariant', hidden('invariant'), {}, { kind: 'restore' }],
      ['one pass is not enough', hidden('invariant'), { recent: [true, false] }, null],
      ['two failures keep it hidden', hidden('invariant'), { recent: [false, false] }, null],
      [
        'a provider change while hidden for invariant changes the reason',
        hidden('invariant'),
        { provider: 'vercel' },
        { kind: 'hide', reason: 'provider_change' },
      ],
      ['a moderator’s hiding for invariant stays', hidden('invariant'), { moderatorHid: true }, null],
      ['provider_change does not come back by passing', hidden('provider_change'), { provider: 'vercel' }, null],
      ['nor when the provider returns', hidden('provider_change'), {}, null],
      ['reports’ hiding stays', hidden('reports'), { recent: [false, false] }, null],
      [
        'a flagged game is moderation’s',
        { status: 'listed', notice_kind: 'flagged', notice_reason: null },
        { recent: [false, false] },
        null,
      ],
    ];
    for (const [name, game, over, move] of cases) {
      it(name, () => expect(moveAfterCheck(game, facts(over))).to.deep.equal(move));
    }
  });
});
