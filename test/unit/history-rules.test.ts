// The pure rule of what goes into a person's history (DECISIONS: History), table by table: a session's
// read of a game or of someone else's profile, while recording is on; never a key's, an anonymous one's,
// nor one's own profile.
import { expect } from 'chai';
import { recordsView, type ViewReader, type ViewedThing } from '../../shared/history/history-rules.js';

const READER = 'a0000000-0000-4000-8000-000000000001';
const OTHER = 'a0000000-0000-4000-8000-000000000002';

const session = (record_history = true): ViewReader => ({
  account: { id: READER, record_history },
  session: { id: 's' },
  key: null,
});
const key: ViewReader = { account: { id: READER, record_history: true }, session: null, key: { id: 'k' } };

describe('history rules: recordsView', () => {
  const cases: Array<[string, ViewReader | null, ViewedThing, boolean]> = [
    ['a session reading a game', session(), { game: 7 }, true],
    ['a session reading someone’s profile', session(), { profile: OTHER }, true],
    ['a session reading its own profile', session(), { profile: READER }, false],
    ['a session with recording off, a game', session(false), { game: 7 }, false],
    ['a session with recording off, a profile', session(false), { profile: OTHER }, false],
    ['a key reading a game', key, { game: 7 }, false],
    ['a key reading a profile', key, { profile: OTHER }, false],
    ['nobody signed in', null, { game: 7 }, false],
  ];
  for (const [label, reader, thing, expected] of cases) {
    it(`${expected ? 'records' : 'does not record'} ${label}`, () => {
      expect(recordsView(reader, thing)).to.equal(expected);
    });
  }
});
