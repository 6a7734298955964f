// Comments on profiles and posted things (DECISIONS: Likes and comments): anyone may read a conversation
// they may see (`social.read` of a key, anonymous too, as GET /reviews/{id}); `social.write` writes and
// deletes (write allowance).
import { isStaff } from '../../../shared/accounts/account.js';
import { deleteComment, postComment } from '../../../shared/comments/comment-commands.js';
import { listComments, resolvePlace } from '../../../shared/comments/load-comments.js';
import { presentComment } from '../../../shared/comments/presenters.js';
import type { CommentInput, CommentTargetKind } from '../../../shared/comments/rows.js';
import { idParams } from '../../../shared/content/content-fields.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { COMMENT_DOCS } from './comments-docs.js';
import { commentBody, commentsQuery } from './schemas.js';

export function commentRoutes(api: VersionedRoutes): void {
  api.get(
    '/comments',
    scoped('social.read', 'read', { anonymous: true }),
    validate({ query: commentsQuery }),
    COMMENT_DOCS.list,
    async (ctx) => {
      const { knex, media } = ctx.services;
      const query = ctx.state.input.query as { on: CommentTargetKind; id: string; before?: string; limit: number };
      const account = ctx.state.caller?.account ?? null;
      const place = await resolvePlace(knex, query.on, query.id, account?.id ?? null);
      const page = await listComments(knex, { id: account?.id ?? null, staff: isStaff(account) }, place, query);
      // Blocks, follows and staff change what a signed-in reader sees; nobody signed in sees the same.
      if (account) ctx.set('Cache-Control', 'private, no-store');
      const on = { kind: place.kind, id: place.apiId };
      ctx.body = {
        data: page.rows.map((row) => presentComment(row, on, (key) => media.url(key))),
        has_more: page.has_more,
        next_before: page.next_before,
      };
    },
  );

  api.post(
    '/comments',
    scoped('social.write', 'write'),
    validate({ body: commentBody }),
    COMMENT_DOCS.create,
    async (ctx) => {
      const { knex, media } = ctx.services;
      const input = ctx.state.input.body as unknown as CommentInput;
      const { comment, place } = await postComment(knex, ctx.state.caller!.account.id, input);
      ctx.status = 201;
      ctx.body = { data: presentComment(comment, { kind: place.kind, id: place.apiId }, (key) => media.url(key)) };
    },
  );

  api.delete(
    '/comments/:id',
    scoped('social.write', 'write'),
    validate({ params: idParams }),
    COMMENT_DOCS.delete,
    async (ctx) => {
      const id = ctx.state.input.params.id as string;
      await deleteComment(ctx.services.knex, ctx.state.caller!.account.id, id);
      ctx.body = { data: { id, deleted: true } };
    },
  );
}
