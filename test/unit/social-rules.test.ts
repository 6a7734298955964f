// The pure rules of likes and comments (issue 23), table by table: who sees a thing people like or comment
// on, who joins a profile's conversation, who deletes a comment, what can be liked and by whom, the blank
// body, and how a cursor page keeps rows of one instant together.
import { expect } from 'chai';
import { conversationOpen, mayDeleteComment, refuseBlankBody } from '../../shared/comments/comment-rules.js';
import { cursorPage, type CursorSource } from '../../shared/content/cursor-page.js';
import { isApiError } from '../../shared/platform/errors.js';
import { isLikeKind, refuseOwnContent } from '../../shared/social/like-rules.js';
import { subjectSeenBy } from '../../shared/social/subjects.js';

const OWNER = 'a0000000-0000-4000-8000-000000000001';
const OTHER = 'a0000000-0000-4000-8000-000000000002';
const THIRD = 'a0000000-0000-4000-8000-000000000003';

/** The reason a rule refuses with, or null when it passes. */
function refusal(rule: () => void): string | null {
  try {
    rule();
    return null;
  } catch (error) {
    if (!isApiError(error)) throw error;
    return error.members.reason ?? null;
  }
}

describe('social rules', () => {
  describe('subjectSeenBy', () => {
    type Visibility = 'PUBLIC' | 'FOLLOWERS' | 'PRIVATE';
    const cases: Array<
      [string, Visibility, boolean, { id: string | null; follows?: boolean; blocked?: boolean }, boolean]
    > = [
      ['the owner, private', 'PRIVATE', false, { id: OWNER }, true],
      ['the owner, removed', 'PUBLIC', true, { id: OWNER }, true],
      ['the owner, even were a block reported', 'PRIVATE', true, { id: OWNER, blocked: true }, true],
      ['anyone, public', 'PUBLIC', false, { id: null }, true],
      ['a stranger, public', 'PUBLIC', false, { id: OTHER }, true],
      ['a stranger, followers', 'FOLLOWERS', false, { id: OTHER }, false],
      ['anyone, followers', 'FOLLOWERS', false, { id: null }, false],
      ['a follower, followers', 'FOLLOWERS', false, { id: OTHER, follows: true }, true],
      ['a follower, private', 'PRIVATE', false, { id: OTHER, follows: true }, false],
      ['a follower, removed', 'PUBLIC', true, { id: OTHER, follows: true }, false],
      ['anyone, removed', 'PUBLIC', true, { id: null }, false],
      ['a follower across a block', 'FOLLOWERS', false, { id: OTHER, follows: true, blocked: true }, false],
      ['a stranger across a block, public', 'PUBLIC', false, { id: OTHER, blocked: true }, false],
    ];
    for (const [label, visibility, removed, reader, seen] of cases) {
      it(`${seen ? 'shows' : 'hides'}: ${label}`, () => {
        expect(
          subjectSeenBy(
            { ownerId: OWNER, visibility, removed },
            { id: reader.id, follows: reader.follows ?? false, blocked: reader.blocked ?? false },
          ),
        ).to.equal(seen);
      });
    }
  });

  describe('conversationOpen', () => {
    const cases: Array<['PUBLIC' | 'FOLLOWERS' | 'PRIVATE', 'owner' | 'follower' | 'other', boolean]> = [
      ['PUBLIC', 'owner', true],
      ['PUBLIC', 'follower', true],
      ['PUBLIC', 'other', true],
      ['FOLLOWERS', 'owner', true],
      ['FOLLOWERS', 'follower', true],
      ['FOLLOWERS', 'other', false],
      // A private account's pages show to its followers, as its layout and connections do.
      ['PRIVATE', 'owner', true],
      ['PRIVATE', 'follower', true],
      ['PRIVATE', 'other', false],
    ];
    for (const [visibility, relation, open] of cases) {
      it(`${visibility} to ${relation}: ${open ? 'open' : 'followers only'}`, () => {
        expect(conversationOpen(visibility, relation)).to.equal(open);
      });
    }
  });

  it('lets the author and the owner of the place delete a comment, nobody else', () => {
    const said = { authorId: OTHER, ownerId: OWNER };
    expect(mayDeleteComment(said, OTHER)).to.equal(true);
    expect(mayDeleteComment(said, OWNER)).to.equal(true);
    expect(mayDeleteComment(said, THIRD)).to.equal(false);
    expect(mayDeleteComment({ authorId: OWNER, ownerId: OWNER }, OWNER)).to.equal(true);
  });

  it('likes reviews, lists, screenshots and journeys, never one’s own', () => {
    for (const kind of ['review', 'list', 'screenshot', 'journey']) expect(isLikeKind(kind), kind).to.equal(true);
    for (const kind of ['session', 'diary', 'comment', 'profile', 'REVIEW', '']) {
      expect(isLikeKind(kind), kind).to.equal(false);
    }
    expect(refusal(() => refuseOwnContent(OWNER, OWNER))).to.equal('own_content');
    expect(refusal(() => refuseOwnContent(OWNER, OTHER))).to.equal(null);
  });

  it('refuses a body of white space alone, whatever the space', () => {
    for (const body of [' ', '\n\n', '\t', '\u00a0', '\u3000', ' \r\n ']) {
      expect(
        refusal(() => refuseBlankBody(body)),
        JSON.stringify(body),
      ).to.equal('fields_invalid');
    }
    for (const body of ['.', ' a ', '😀']) expect(refusal(() => refuseBlankBody(body))).to.equal(null);
  });

  describe('cursorPage', () => {
    /** Rows newest first at these instants (seconds), served as a database would. */
    function source(seconds: number[]): CursorSource<{ created_at: string; n: number }> {
      const rows = seconds.map((s, n) => ({ created_at: `2026-11-20T10:00:${String(s).padStart(2, '0')}Z`, n }));
      return {
        before: async (before, limit) =>
          rows.filter((row) => before === undefined || row.created_at < before).slice(0, limit),
        at: async (instant) => rows.filter((row) => row.created_at === instant),
      };
    }
    const ns = (page: { rows: Array<{ n: number }> }) => page.rows.map((row) => row.n);

    it('pages by limit, with the last item’s instant as the next cursor', async () => {
      const page = await cursorPage(source([9, 8, 7, 6]), undefined, 2);
      expect(ns(page)).to.deep.equal([0, 1]);
      expect(page).to.include({ has_more: true, next_before: '2026-11-20T10:00:08Z' });
      const last = await cursorPage(source([9, 8, 7, 6]), '2026-11-20T10:00:07Z', 2);
      expect(ns(last)).to.deep.equal([3]);
      expect(last).to.include({ has_more: false, next_before: null });
    });

    it('ends a page before a group of one instant that the page would split', async () => {
      const page = await cursorPage(source([9, 8, 8, 7]), undefined, 2);
      expect(ns(page)).to.deep.equal([0]);
      expect(page).to.include({ has_more: true, next_before: '2026-11-20T10:00:09Z' });
    });

    it('holds a group that fills the page whole, then goes on before it', async () => {
      const page = await cursorPage(source([8, 8, 8, 7]), undefined, 2);
      expect(ns(page)).to.deep.equal([0, 1, 2]);
      expect(page).to.include({ has_more: true, next_before: '2026-11-20T10:00:08Z' });
      const alone = await cursorPage(source([8, 8, 8]), undefined, 2);
      expect(ns(alone)).to.deep.equal([0, 1, 2]);
      expect(alone).to.include({ has_more: false, next_before: null });
    });
  });
});
