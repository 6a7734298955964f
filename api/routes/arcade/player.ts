// Player routes (spec arcade.md: Player grants; DECISIONS: Arcade launch): grants, launching a game,
// the owner's test launch of the development URL, and the stream a page with an open game listens to.
// All are session only: no scope opens a game or a player's games to a key.
import { agree, changeNickname, listGrants, revoke } from '../../../shared/arcade/grants.js';
import { launchLive, launchOverride } from '../../../shared/arcade/launch.js';
import { config } from '../../../shared/platform/config.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import type { AppContext } from '../../context.js';
import { sessionCaller, sessionOnly } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { developer, developerGame, overrideUrlSettings } from './developer-game.js';
import { openPlayStream } from './play-stream.js';
import { ARCADE_OVERRIDE_DOCS } from './arcade-override-docs.js';
import { ARCADE_PLAYER_DOCS } from './arcade-player-docs.js';
import { idParams } from '../schemas.js';
import { arcadeInput } from './bodies.js';

const appIdParams: SchemaObject = {
  type: 'object',
  required: ['appId'],
  properties: { appId: { type: 'string', maxLength: 100 } },
};
const forgetQuery: SchemaObject = { type: 'object', properties: { forget: { type: 'boolean', default: false } } };
const slugParams: SchemaObject = {
  type: 'object',
  required: ['slug'],
  properties: { slug: { type: 'string', maxLength: 100 } },
};
const instanceParams: SchemaObject = {
  type: 'object',
  required: ['iid'],
  properties: { iid: { type: 'string', maxLength: 100 } },
};

const launchDeps = () => ({ secret: config().secret, issuer: config().publicUrl });

async function grantAnswer(ctx: AppContext, appId: string) {
  const mediaUrl = (key: string) => ctx.services.media.url(key);
  const [grant] = await listGrants(ctx.services.knex, sessionCaller(ctx).account.id, mediaUrl, appId);
  return grant;
}

export function arcadePlayerRoutes(api: VersionedRoutes): void {
  // A session owing its second factor may read its grants and listen to its plays: the spec's rule 9
  // (general.md, Authentication) names the routes that refuse it, and player routes are not among them;
  // every write under /api/v1 refuses it anyway (access.ts), so agreeing, renaming, revoking and
  // launching still wait for the factor.
  const read = sessionOnly({ allowance: 'read' });
  const write = sessionOnly({ allowance: 'write', mfa: true });

  api.get('/account/arcade/grants', read, ARCADE_PLAYER_DOCS.grants, async (ctx) => {
    const mediaUrl = (key: string) => ctx.services.media.url(key);
    ctx.body = { data: await listGrants(ctx.services.knex, sessionCaller(ctx).account.id, mediaUrl) };
  });

  api.post('/account/arcade/grants', write, arcadeInput('agree'), ARCADE_PLAYER_DOCS.agree, async (ctx) => {
    const body = ctx.state.input.body;
    const { created } = await agree(ctx.services.knex, sessionCaller(ctx).account.id, body.app_id, body.nickname);
    ctx.status = created ? 201 : 200;
    ctx.body = { data: { grant: await grantAnswer(ctx, body.app_id as string) } };
  });

  api.patch(
    '/account/arcade/grants/:appId',
    write,
    arcadeInput('rename', appIdParams),
    ARCADE_PLAYER_DOCS.rename,
    async (ctx) => {
      const appId = ctx.state.input.params.appId as string;
      const body = ctx.state.input.body;
      await changeNickname(ctx.services.knex, sessionCaller(ctx).account.id, appId, body.nickname);
      ctx.body = { data: { grant: await grantAnswer(ctx, appId) } };
    },
  );

  api.delete(
    '/account/arcade/grants/:appId',
    write,
    validate({ params: appIdParams, query: forgetQuery }),
    ARCADE_PLAYER_DOCS.revoke,
    async (ctx) => {
      const appId = ctx.state.input.params.appId as string;
      await revoke(ctx.services.knex, sessionCaller(ctx).account.id, appId, ctx.state.input.query.forget === true);
      ctx.body = { data: null };
    },
  );

  api.post(
    '/arcade/apps/:slug/launch',
    write,
    validate({ params: slugParams }),
    ARCADE_PLAYER_DOCS.launch,
    async (ctx) => {
      const slug = ctx.state.input.params.slug as string;
      ctx.body = { data: await launchLive(ctx.services.knex, launchDeps(), sessionCaller(ctx).account, slug) };
    },
  );

  api.post(
    '/account/apps/:id/arcade/override/launch',
    developer('write'),
    validate({ params: idParams }),
    ARCADE_OVERRIDE_DOCS.launch,
    async (ctx) => {
      // An override route: a publisher-blocked account may not open it either (spec: Endpoints).
      const game = await developerGame(ctx, { publishing: true });
      const { account } = sessionCaller(ctx);
      ctx.body = {
        data: await launchOverride(ctx.services.knex, launchDeps(), account, game, overrideUrlSettings(ctx)),
      };
    },
  );

  api.get(
    '/arcade/instances/:iid/stream',
    read,
    validate({ params: instanceParams }),
    ARCADE_PLAYER_DOCS.stream,
    async (ctx) => {
      await openPlayStream(ctx, ctx.state.input.params.iid as string);
    },
  );
}
