// The pure rules of what people write (issue 22), table by table: who sees one review, a session's minutes
// and times, a journey's times, when a library write tells the feed, and the texts the schema refuses.
import { expect } from 'chai';
import { Ajv } from 'ajv';
import formatsModule, { type FormatsPlugin } from 'ajv-formats';
import { text } from '../../shared/content/content-fields.js';
import { isApiError } from '../../shared/platform/errors.js';
import { refuseJourneyTimes, refuseSessionTimes, sessionMinutes } from '../../shared/journal/journal-rules.js';
import { tellsTheFeed } from '../../shared/library/entry-rules.js';
import { thingSeenBy as reviewSeenBy } from '../../shared/people/item-visibility.js';

const AUTHOR = 'a0000000-0000-4000-8000-000000000001';
const OTHER = 'a0000000-0000-4000-8000-000000000002';
const NOW = Date.parse('2026-11-25T12:00:00.000Z');
const at = (minutes: number) => new Date(NOW + minutes * 60_000).toISOString();

/** The field a rule refuses, or null when it passes. */
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

describe('content rules', () => {
  describe('reviewSeenBy', () => {
    const cases: Array<
      [
        string,
        { visibility: 'PUBLIC' | 'FOLLOWERS' | 'PRIVATE'; removed?: boolean },
        { id: string | null; follows?: boolean; blocked?: boolean },
        boolean,
      ]
    > = [
      ['the author, private', { visibility: 'PRIVATE' }, { id: AUTHOR }, true],
      ['the author, removed', { visibility: 'PUBLIC', removed: true }, { id: AUTHOR }, true],
      ['anyone, public', { visibility: 'PUBLIC' }, { id: null }, true],
      ['a stranger, followers only', { visibility: 'FOLLOWERS' }, { id: OTHER }, false],
      ['a follower, followers only', { visibility: 'FOLLOWERS' }, { id: OTHER, follows: true }, true],
      ['a follower, private', { visibility: 'PRIVATE' }, { id: OTHER, follows: true }, false],
      ['a follower across a block', { visibility: 'PUBLIC' }, { id: OTHER, follows: true, blocked: true }, false],
      ['anyone, removed', { visibility: 'PUBLIC', removed: true }, { id: OTHER, follows: true }, false],
    ];
    for (const [name, review, reader, seen] of cases) {
      it(`${seen ? 'shows' : 'hides'} it to ${name}`, () => {
        expect(
          reviewSeenBy(
            { authorId: AUTHOR, visibility: review.visibility, removed: review.removed ?? false },
            { id: reader.id, follows: reader.follows ?? false, blocked: reader.blocked ?? false },
          ),
        ).to.equal(seen);
      });
    }
  });

  describe('sessions', () => {
    it('counts whole minutes, rounded down, and none while live', () => {
      expect(sessionMinutes(at(0), at(90))).to.equal(90);
      expect(sessionMinutes(at(0), new Date(NOW + 59_999).toISOString())).to.equal(0);
      expect(sessionMinutes(at(0), null)).to.equal(null);
    });

    const cases: Array<[string, string, string | null, 'started_at' | 'ended_at' | undefined, string | null]> = [
      ['a closed hour', at(-120), at(-60), undefined, null],
      ['a live session started long ago', at(-3000), null, undefined, null],
      ['exactly 24 hours', at(-1440), at(0), undefined, null],
      ['a minute over 24 hours', at(-1441), at(0), undefined, 'ended_at'],
      ['over 24 hours, the start sent', at(-1441), at(0), 'started_at', 'started_at'],
      ['an end before the start', at(-60), at(-120), undefined, 'ended_at'],
      ['a start after the stored end', at(-60), at(-120), 'started_at', 'started_at'],
      ['a start 4 minutes ahead', at(4), null, undefined, null],
      ['a start 6 minutes ahead', at(6), null, undefined, 'started_at'],
      ['an end 6 minutes ahead', at(-10), at(6), undefined, 'ended_at'],
    ];
    for (const [name, started, ended, blame, field] of cases) {
      it(`${field ? `refuses ${field} for` : 'takes'} ${name}`, () => {
        expect(refusedField(() => refuseSessionTimes({ started_at: started, ended_at: ended }, blame, NOW))).to.equal(
          field,
        );
      });
    }
  });

  describe('journeys', () => {
    const cases: Array<[string, string | null, string | null, string | null]> = [
      ['an open run', at(-600), null, null],
      ['a finished run', at(-600), at(-10), null],
      ['a finish on its start', at(-600), at(-600), null],
      ['a finish before its start', at(-600), at(-601), 'finished_at'],
      ['a start in the future', at(10), null, 'started_at'],
      ['a finish in the future', at(-600), at(10), 'finished_at'],
    ];
    for (const [name, started, finished, field] of cases) {
      it(`${field ? `refuses ${field} for` : 'takes'} ${name}`, () => {
        expect(
          refusedField(() => refuseJourneyTimes({ started_at: started, finished_at: finished }, undefined, NOW)),
        ).to.equal(field);
      });
    }
  });

  describe('tellsTheFeed', () => {
    const entry = { status: 'PLAYING', rating: 70, ignored: false };
    const cases: Array<[string, { status: string | null; rating: number | null } | null, typeof entry, boolean]> = [
      ['a creation', null, entry, true],
      ['a creation of an ignored game', null, { ...entry, ignored: true }, false],
      ['a new status', { status: 'BACKLOG', rating: 70 }, entry, true],
      ['a new rating', { status: 'PLAYING', rating: null }, entry, true],
      ['the same status and rating', { status: 'PLAYING', rating: 70 }, entry, false],
      ['a change while ignored', { status: 'BACKLOG', rating: 70 }, { ...entry, ignored: true }, false],
    ];
    for (const [name, before, after, tells] of cases) {
      it(`${tells ? 'tells' : 'does not tell'} the feed of ${name}`, () => {
        expect(tellsTheFeed(before, after)).to.equal(tells);
      });
    }
  });

  describe('texts', () => {
    const ajv = new Ajv({ strict: true });
    (formatsModule as unknown as { default: FormatsPlugin }).default(ajv);
    const check = ajv.compile(text(5, 1));
    const cases: Array<[string, string, boolean]> = [
      ['plain words', 'abc', true],
      ['a tab, a line feed and a carriage return', 'a\tb\r\n', true],
      ['five emoji (five code points)', '🎮🎮🎮🎮🎮', true],
      ['six emoji', '🎮🎮🎮🎮🎮🎮', false],
      ['nothing', '', false],
      ['a bell (U+0007)', 'a\u0007', false],
      ['an escape (U+001B)', 'a\u001b', false],
      ['a DEL (U+007F)', 'a\u007f', false],
      ['a C1 control (U+0085)', 'a\u0085', false],
      ['a form feed', 'a\u000c', false],
    ];
    for (const [name, value, valid] of cases) {
      it(`${valid ? 'takes' : 'refuses'} ${name}`, () => {
        expect(check(value)).to.equal(valid);
      });
    }
  });
});
