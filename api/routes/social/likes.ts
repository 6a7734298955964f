// Likes on reviews, lists, screenshots and journeys (DECISIONS: Likes and comments): `social.write` likes
// and unlikes (write allowance), `social.read` lists the caller's likes.
import { listLikes, setLike } from '../../../shared/social/likes.js';
import type { LikeKind } from '../../../shared/social/like-rules.js';
import type { AppContext } from '../../context.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { LIKE_DOCS } from './likes-docs.js';
import { likeParams, likesQuery } from './schemas.js';

async function answerLike(ctx: AppContext, liked: boolean) {
  const { kind, id } = ctx.state.input.params as { kind: string; id: string };
  ctx.body = { data: await setLike(ctx.services.knex, ctx.state.caller!.account.id, kind, id, liked) };
}

export function likeRoutes(api: VersionedRoutes): void {
  api.get('/likes', scoped('social.read', 'read'), validate({ query: likesQuery }), LIKE_DOCS.list, async (ctx) => {
    const query = ctx.state.input.query as { kind?: LikeKind; before?: string; limit: number };
    const page = await listLikes(ctx.services.knex, ctx.state.caller!.account.id, query);
    ctx.body = { data: page.rows, has_more: page.has_more, next_before: page.next_before };
  });

  api.put(
    '/likes/:kind/:id',
    scoped('social.write', 'write'),
    validate({ params: likeParams }),
    LIKE_DOCS.like,
    (ctx) => answerLike(ctx, true),
  );

  api.delete(
    '/likes/:kind/:id',
    scoped('social.write', 'write'),
    validate({ params: likeParams }),
    LIKE_DOCS.unlike,
    (ctx) => answerLike(ctx, false),
  );
}
