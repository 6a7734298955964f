// Reviews: written by their author, read by anyone who may see them (DECISIONS: Reviews). Writes need
// `reviews.write` and spend the write allowance; the one-review read is public, as the feed is.
import { createReview, deleteReview, updateReview } from '../../../shared/reviews/review-commands.js';
import { readReview } from '../../../shared/reviews/load-review.js';
import { presentReview } from '../../../shared/reviews/presenters.js';
import { answerKeepable } from '../../../shared/people/item-visibility.js';
import type { ReviewChanges, ReviewInput } from '../../../shared/reviews/rows.js';
import { idParams } from '../../../shared/content/content-fields.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { REVIEW_DOCS } from './reviews-docs.js';
import { reviewCreateBody, reviewPatchBody } from './schemas.js';

export function reviewRoutes(api: VersionedRoutes): void {
  api.post(
    '/reviews',
    scoped('reviews.write', 'write'),
    validate({ body: reviewCreateBody }),
    REVIEW_DOCS.create,
    async (ctx) => {
      const input = ctx.state.input.body as unknown as ReviewInput;
      const review = await createReview(ctx.services.knex, ctx.state.caller!.account.id, input);
      ctx.status = 201;
      ctx.body = { data: presentReview(review) };
    },
  );

  api.get(
    '/reviews/:id',
    scoped('reviews.read', 'read', { anonymous: true }),
    validate({ params: idParams }),
    REVIEW_DOCS.get,
    async (ctx) => {
      const readerId = ctx.state.caller?.account.id ?? null;
      const review = await readReview(ctx.services.knex, ctx.state.input.params.id as string, readerId);
      // Only an anonymous read of a PUBLIC review is the same for everyone who may ask it again.
      if (!answerKeepable(review.visibility, readerId)) ctx.set('Cache-Control', 'private, no-store');
      ctx.body = { data: presentReview(review) };
    },
  );

  api.patch(
    '/reviews/:id',
    scoped('reviews.write', 'write'),
    validate({ params: idParams, body: reviewPatchBody }),
    REVIEW_DOCS.update,
    async (ctx) => {
      const review = await updateReview(
        ctx.services.knex,
        ctx.state.caller!.account.id,
        ctx.state.input.params.id as string,
        ctx.state.input.body as ReviewChanges,
      );
      ctx.body = { data: presentReview(review) };
    },
  );

  api.delete(
    '/reviews/:id',
    scoped('reviews.write', 'write'),
    validate({ params: idParams }),
    REVIEW_DOCS.delete,
    async (ctx) => {
      const id = ctx.state.input.params.id as string;
      await deleteReview(ctx.services.knex, ctx.state.caller!.account.id, id);
      ctx.body = { data: { id, deleted: true } };
    },
  );
}
