// Moderation of Arcade (DECISIONS: Staff and moderation): the queue of submitted store pages and releases,
// decisions on each, and actions on games. Moderators with a session that passed two-factor only.
import {
  actOnGame,
  APP_ACTIONS,
  decideListing,
  decideRelease,
  LISTING_DECISIONS,
  RELEASE_DECISIONS,
  reviewQueue,
} from '../../../shared/arcade/review.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { sessionCaller, sessionOnly } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { staffWithTwoFactor } from './staff-access.js';
import { MODERATION_DOCS } from './moderation-docs.js';
import { idParams } from '../schemas.js';

const reasons = { type: 'array', maxItems: 20, items: { type: 'string', minLength: 1, maxLength: 100 } };
const note = { type: ['string', 'null'], maxLength: 2000 };

const releaseBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['decision'],
  properties: { decision: { type: 'string', enum: [...RELEASE_DECISIONS] }, reasons, note },
};
const listingBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['decision'],
  properties: { decision: { type: 'string', enum: [...LISTING_DECISIONS] }, reasons, note },
};
const appBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['action'],
  properties: {
    action: { type: 'string', enum: [...APP_ACTIONS] },
    reason: { type: ['string', 'null'], maxLength: 1000 },
  },
};

export function arcadeModerationRoutes(api: VersionedRoutes): void {
  const read = [sessionOnly({ allowance: 'read' }), staffWithTwoFactor()];
  const write = [sessionOnly({ allowance: 'write' }), staffWithTwoFactor()];

  api.get('/moderation/arcade/queue', ...read, MODERATION_DOCS.arcadeQueue, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { data: await reviewQueue(ctx.services.knex) };
  });

  api.post(
    '/moderation/arcade/releases/:id',
    ...write,
    validate({ params: idParams, body: releaseBody }),
    MODERATION_DOCS.release,
    async (ctx) => {
      const { decision, ...input } = ctx.state.input.body as { decision: (typeof RELEASE_DECISIONS)[number] };
      const release = await decideRelease(
        ctx.services.knex,
        sessionCaller(ctx).account,
        ctx.state.input.params.id as string,
        decision,
        input,
      );
      ctx.body = { data: { id: release.id, number: release.number, status: release.status, review: release.review } };
    },
  );

  api.post(
    '/moderation/arcade/listings/:id',
    ...write,
    validate({ params: idParams, body: listingBody }),
    MODERATION_DOCS.listing,
    async (ctx) => {
      const { decision, ...input } = ctx.state.input.body as { decision: (typeof LISTING_DECISIONS)[number] };
      const listing = await decideListing(
        ctx.services.knex,
        sessionCaller(ctx).account,
        ctx.state.input.params.id as string,
        decision,
        input,
      );
      ctx.body = { data: { id: listing.id, number: listing.number, status: listing.status, review: listing.review } };
    },
  );

  api.post(
    '/moderation/arcade/apps/:id',
    ...write,
    validate({ params: idParams, body: appBody }),
    MODERATION_DOCS.app,
    async (ctx) => {
      const { action, reason } = ctx.state.input.body as {
        action: (typeof APP_ACTIONS)[number];
        reason?: string | null;
      };
      const game = await actOnGame(
        ctx.services.knex,
        sessionCaller(ctx).account,
        ctx.state.input.params.id as string,
        action,
        reason ?? null,
      );
      ctx.body = {
        data: {
          app_id: game.app_id,
          slug: game.slug,
          status: game.status,
          notice: game.notice_kind ? { kind: game.notice_kind, reason: game.notice_reason, at: game.notice_at } : null,
        },
      };
    },
  );
}
