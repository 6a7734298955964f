// The development URL routes (spec: GET/PUT/DELETE .../override). Unlike the other developer routes,
// another account's app answers 403 `not_owner`, as the spec's table says, and an app without Arcade
// 404 `app_not_found`; every one needs a session that passed two-factor, even for reading.
import { gameNotFound, gameOf } from '../../../shared/arcade/games.js';
import { clearOverride, loadOverride, saveOverride } from '../../../shared/arcade/override.js';
import { forbidden } from '../../../shared/platform/errors.js';
import { App } from '../../../shared/keys/models.js';
import { publisherBlocked } from '../../../shared/moderation/account-sanctions.js';
import { accountSuspended } from '../../../shared/moderation/suspension.js';
import { isUuid } from '../../../shared/platform/validation/uuid.js';
import type { AppContext } from '../../context.js';
import { sessionCaller } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { ARCADE_OVERRIDE_DOCS } from './arcade-override-docs.js';
import type { ArcadeApp } from '../../../shared/arcade/rows.js';
import { idParams } from '../schemas.js';
import { arcadeInput } from './bodies.js';
import { developer, overrideUrlSettings } from './developer-game.js';

async function ownedGame(ctx: AppContext, rules: { publishing?: boolean; banned?: boolean } = {}): Promise<ArcadeApp> {
  const { knex } = ctx.services;
  const { account } = sessionCaller(ctx);
  const id = ctx.state.input.params.id as string;
  const app = isUuid(id) ? await App.query(knex).findById(id) : undefined;
  if (!app) throw gameNotFound();
  if (app.account_id !== account.id) throw forbidden('not_owner', {}, 'Only the owner of this app may do this.');
  const game = await gameOf(knex, app.id);
  if (!game) throw gameNotFound();
  // DELETE passes the suspension middleware (sessions may always delete); the spec still answers banned.
  if (rules.banned && (await accountSuspended(knex, account.id)))
    throw forbidden('banned', {}, 'This account is suspended.');
  if (rules.publishing && (await publisherBlocked(knex, account.id))) {
    throw forbidden('publisher_blocked', {}, 'Moderation has blocked this account from publishing.');
  }
  return game;
}

export function arcadeOverrideRoutes(api: VersionedRoutes): void {
  const params = validate({ params: idParams });

  api.get('/account/apps/:id/arcade/override', developer('read'), params, ARCADE_OVERRIDE_DOCS.read, async (ctx) => {
    const game = await ownedGame(ctx);
    ctx.body = { data: { override: await loadOverride(ctx.services.knex, game, overrideUrlSettings(ctx)) } };
  });

  api.put(
    '/account/apps/:id/arcade/override',
    developer('write'),
    arcadeInput('override', idParams),
    ARCADE_OVERRIDE_DOCS.save,
    async (ctx) => {
      const game = await ownedGame(ctx, { publishing: true });
      if (game.status === 'removed' || game.status === 'suspended') {
        throw forbidden('not_playable', {}, 'This game cannot be opened.');
      }
      const body = ctx.state.input.body as { url: unknown; release_id: unknown };
      const settings = overrideUrlSettings(ctx);
      await saveOverride(ctx.services.knex, sessionCaller(ctx).account.id, game, body, settings);
      ctx.body = { data: { override: await loadOverride(ctx.services.knex, game, settings) } };
    },
  );

  api.delete(
    '/account/apps/:id/arcade/override',
    developer('write'),
    params,
    ARCADE_OVERRIDE_DOCS.clear,
    async (ctx) => {
      const game = await ownedGame(ctx, { banned: true });
      await clearOverride(ctx.services.knex, game);
      ctx.body = { data: { override: null } };
    },
  );
}
