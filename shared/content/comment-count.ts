// What every likeable thing shows as `comments` wherever it is shown (DECISIONS: What the feed and the
// things carry): the comments on it that moderation has not removed. One SQL piece, so the reads that
// show a thing count alike.

/** The kinds comments name things by (DIARY: a journal session); PROFILE is a person, not a thing. */
export const COMMENTED_KINDS = ['REVIEW', 'LIST', 'SCREENSHOT', 'DIARY', 'JOURNEY'] as const;
export type CommentedKind = (typeof COMMENTED_KINDS)[number];

/** SQL: the count for the thing of `kind` whose id is the SQL expression `id` (a column, e.g. `r.id`). */
export const commentCountSql = (kind: CommentedKind, id: string) =>
  `(SELECT count(*)::int FROM comments c WHERE c.target_kind = '${kind}' AND c.target_id = ${id} AND c.removed_at IS NULL)`;
