// The owner's connections (spec: Social (owner's connections)). Reads need `social.read` of a key; the
// spec names no write scope, so changes need `profile.write` (docs/api-notes.md). Accepting requests
// refuses a session that still owes its second factor, one or all alike.
import { owesSecondFactor } from '../../../shared/auth/session-rules.js';
import { forbidden } from '../../../shared/platform/errors.js';
import { pageParameter } from '../../../shared/platform/paging/paging.js';
import { listConnections, type ConnectionKind } from '../../../shared/social/connections.js';
import {
  acceptAllRequests,
  acceptRequest,
  block,
  declineAllRequests,
  declineRequest,
  follow,
  otherPerson,
  unblock,
  unfollow,
} from '../../../shared/social/social-graph.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import type { AppContext } from '../../context.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { SOCIAL_DOCS } from './social-docs.js';

const listQuery: SchemaObject = {
  type: 'object',
  properties: { page: pageParameter(), q: { type: 'string', maxLength: 80 } },
};
const usernameParams: SchemaObject = {
  type: 'object',
  required: ['username'],
  properties: { username: { type: 'string', maxLength: 100 } },
};
const allBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['all'],
  properties: { all: { type: 'boolean', const: true } },
};
const allQuery: SchemaObject = {
  type: 'object',
  required: ['all'],
  properties: { all: { type: 'boolean', const: true } },
};

const read = () => scoped('social.read', 'read');
const write = () => scoped('profile.write', 'write');

function secondFactorPassed(ctx: AppContext): void {
  const { account, session } = ctx.state.caller!;
  if (session && owesSecondFactor(account, session)) throw forbidden('mfa_required');
}

async function other(ctx: AppContext) {
  return otherPerson(ctx.services.knex, ctx.state.caller!.account, ctx.state.input.params.username as string);
}

export function socialRoutes(api: VersionedRoutes): void {
  for (const kind of ['followers', 'following', 'blocks', 'follow-requests'] as ConnectionKind[]) {
    api.get(`/social/${kind}`, read(), validate({ query: listQuery }), SOCIAL_DOCS[kind], async (ctx) => {
      const { knex, media } = ctx.services;
      const { page, q } = ctx.state.input.query as { page: number; q?: string };
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await listConnections(knex, ctx.state.caller!.account.id, kind, { page, q }, (key) => media.url(key));
    });
  }

  api.put(
    '/social/following/:username',
    write(),
    validate({ params: usernameParams }),
    SOCIAL_DOCS.follow,
    async (ctx) => {
      ctx.body = { data: await follow(ctx.services.knex, ctx.state.caller!.account, await other(ctx)) };
    },
  );

  api.delete(
    '/social/following/:username',
    write(),
    validate({ params: usernameParams }),
    SOCIAL_DOCS.unfollow,
    async (ctx) => {
      ctx.body = { data: await unfollow(ctx.services.knex, ctx.state.caller!.account, await other(ctx)) };
    },
  );

  api.put('/social/blocks/:username', write(), validate({ params: usernameParams }), SOCIAL_DOCS.block, async (ctx) => {
    const target = await other(ctx);
    await block(ctx.services.knex, ctx.state.caller!.account, target);
    ctx.body = { data: { username: target.username, blocked: true } };
  });

  api.delete(
    '/social/blocks/:username',
    write(),
    validate({ params: usernameParams }),
    SOCIAL_DOCS.unblock,
    async (ctx) => {
      const target = await other(ctx);
      await unblock(ctx.services.knex, ctx.state.caller!.account, target);
      ctx.body = { data: { username: target.username, blocked: false } };
    },
  );

  api.put('/social/follow-requests', write(), validate({ body: allBody }), SOCIAL_DOCS.acceptAll, async (ctx) => {
    secondFactorPassed(ctx);
    ctx.body = { data: { approved: await acceptAllRequests(ctx.services.knex, ctx.state.caller!.account) } };
  });

  api.delete('/social/follow-requests', write(), validate({ query: allQuery }), SOCIAL_DOCS.declineAll, async (ctx) => {
    ctx.body = { data: { declined: await declineAllRequests(ctx.services.knex, ctx.state.caller!.account) } };
  });

  api.put(
    '/social/follow-requests/:username',
    write(),
    validate({ params: usernameParams }),
    SOCIAL_DOCS.accept,
    async (ctx) => {
      secondFactorPassed(ctx);
      const requester = await other(ctx);
      await acceptRequest(ctx.services.knex, ctx.state.caller!.account, requester);
      ctx.body = { data: { username: requester.username, approved: true } };
    },
  );

  api.delete(
    '/social/follow-requests/:username',
    write(),
    validate({ params: usernameParams }),
    SOCIAL_DOCS.decline,
    async (ctx) => {
      const requester = await other(ctx);
      const declined = await declineRequest(ctx.services.knex, ctx.state.caller!.account, requester);
      ctx.body = { data: { username: requester.username, declined } };
    },
  );
}
