// A comment as the comment routes answer it: the conversation's shape of GET /profiles/{u}/social (id,
// author, body, created_at) and where it is.
import { presentPersonSummary } from '../people/presenters.js';
import type { CommentPlace, CommentRow } from './rows.js';

export function presentComment(row: CommentRow, on: CommentPlace, mediaUrl: (key: string) => string) {
  return {
    id: row.id,
    on: { kind: on.kind, id: on.id },
    author: presentPersonSummary(row, mediaUrl),
    body: row.body,
    created_at: row.created_at,
  };
}

export type PresentedComment = ReturnType<typeof presentComment>;
