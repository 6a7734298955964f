// What a comment is made of (DECISIONS: Likes and comments): where it is (a person's profile, or one of
// their things), its author as other people's pages show people, and what its author sends.
import { SUBJECT_KINDS } from '../social/subjects.js';

/** What a comment is on: a person's profile conversation, or a thing (DIARY: a play session). */
export const COMMENT_TARGETS = ['PROFILE', ...SUBJECT_KINDS] as const;
export type CommentTargetKind = (typeof COMMENT_TARGETS)[number];

/** Where a comment is, as clients name it: PROFILE by the person's username, a thing by its id. */
export interface CommentPlace {
  kind: CommentTargetKind;
  id: string;
}

/** A comment's row with its author beside it, as the comment reads load it. */
export interface CommentRow {
  id: string;
  body: string;
  /** To the microsecond (a cursor). */
  created_at: string;
  username: string | null;
  display_name: string | null;
  avatar_key: string | null;
}

/** What `POST /comments` takes. */
export interface CommentInput {
  on: CommentTargetKind;
  id: string;
  body: string;
}

/** A place resolved for one reader: the row a comment stores as its target, and its owner. */
export interface ResolvedPlace {
  kind: CommentTargetKind;
  /** The profile's account, or the thing's row id. */
  targetId: string;
  ownerId: string;
  /** The id clients name it by (a profile: the owner's current username). */
  apiId: string;
}
