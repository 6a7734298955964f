// A developer's game (spec arcade.md: Developer routes): the store-page draft and its submission,
// releases, their checks, submission, withdrawal and going live, and removing the game. Each route asks
// developer()/developerGame() first: a session that passed two-factor, the owner's game, and the rules
// (publisher block, recent session, terms) the spec puts on it.
import { arcadeRecord, loadReleases } from '../../../shared/arcade/app-record.js';
import { checkNow } from '../../../shared/arcade/checks.js';
import { refuseBlockedNetworks } from '../../../shared/arcade/host-rules.js';
import { checkListing } from '../../../shared/arcade/listing-rules.js';
import { listingOf, saveListingDraft, submitListing } from '../../../shared/arcade/listings.js';
import { presentCheck } from '../../../shared/arcade/presenters.js';
import { checkRelease } from '../../../shared/arcade/release-rules.js';
import { makeLive, submitRelease, type MoveServices } from '../../../shared/arcade/release-moves.js';
import { createRelease, findRelease, replaceRelease, withdrawRelease } from '../../../shared/arcade/releases.js';
import { removeGame } from '../../../shared/arcade/removal.js';
import type { ArcadeApp } from '../../../shared/arcade/rows.js';
import { config } from '../../../shared/platform/config.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import type { AppContext } from '../../context.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { developer, developerGame, urlRuleSettings } from './developer-game.js';
import { ARCADE_DEVELOPER_DOCS } from './arcade-developer-docs.js';
import { ARCADE_RELEASE_DOCS } from './arcade-release-docs.js';
import { idParams } from '../schemas.js';
import { arcadeInput } from './bodies.js';

const releaseParams: SchemaObject = {
  type: 'object',
  required: ['id', 'rid'],
  properties: { id: { type: 'string', maxLength: 100 }, rid: { type: 'string', maxLength: 100 } },
};

const mediaUrlOf = (ctx: AppContext) => (key: string) => ctx.services.media.url(key);

/** What submitting and making live need; RDAP's address is read per request (tests change it). */
const moveServices = (ctx: AppContext): MoveServices => ({
  knex: ctx.services.knex,
  replies: ctx.services.replies,
  rdapBaseUrl: config().arcade.rdapBaseUrl,
});

/** One release as the list shows it (its live and rollback members need the game's other releases). */
async function releaseAnswer(ctx: AppContext, game: ArcadeApp, releaseId: string) {
  const shown = await loadReleases(ctx.services.knex, game);
  return shown.find((release) => release.id === releaseId)!;
}

export function arcadeDeveloperRoutes(api: VersionedRoutes): void {
  const params = validate({ params: idParams });
  const withRelease = validate({ params: releaseParams });

  api.put(
    '/account/apps/:id/arcade/listing',
    developer('write'),
    arcadeInput('listing', idParams),
    ARCADE_DEVELOPER_DOCS.listing,
    async (ctx) => {
      const game = await developerGame(ctx, { move: true, publishing: true });
      const fields = checkListing(ctx.request.body);
      await saveListingDraft(ctx.services.knex, game, fields);
      ctx.body = { data: { listing: await listingOf(ctx.services.knex, game.app_id, mediaUrlOf(ctx)) } };
    },
  );

  api.post(
    '/account/apps/:id/arcade/listing/submit',
    developer('write', { recent: true }),
    params,
    ARCADE_DEVELOPER_DOCS.submitListing,
    async (ctx) => {
      const { knex } = ctx.services;
      const game = await developerGame(ctx, { move: true, publishing: true, terms: true });
      await submitListing(knex, game);
      ctx.body = { data: { listing: await listingOf(knex, game.app_id, mediaUrlOf(ctx)) } };
    },
  );

  api.get('/account/apps/:id/arcade/releases', developer('read'), params, ARCADE_RELEASE_DOCS.list, async (ctx) => {
    const game = await developerGame(ctx);
    ctx.body = { data: await loadReleases(ctx.services.knex, game) };
  });

  api.post(
    '/account/apps/:id/arcade/releases',
    developer('write'),
    arcadeInput('release', idParams),
    ARCADE_RELEASE_DOCS.create,
    async (ctx) => {
      const game = await developerGame(ctx, { move: true, publishing: true });
      const release = await createRelease(ctx.services.knex, game, checkRelease(ctx.request.body, urlRuleSettings()));
      ctx.status = 201;
      ctx.body = { data: { release: await releaseAnswer(ctx, game, release.id) } };
    },
  );

  api.put(
    '/account/apps/:id/arcade/releases/:rid',
    developer('write'),
    arcadeInput('release', releaseParams),
    ARCADE_RELEASE_DOCS.replace,
    async (ctx) => {
      const game = await developerGame(ctx, { move: true, publishing: true });
      const rid = ctx.state.input.params.rid as string;
      await findRelease(ctx.services.knex, game.app_id, rid);
      const input = checkRelease(ctx.request.body, urlRuleSettings());
      const release = await replaceRelease(ctx.services.knex, game, rid, input);
      ctx.body = { data: { release: await releaseAnswer(ctx, game, release.id) } };
    },
  );

  api.post(
    '/account/apps/:id/arcade/releases/:rid/check',
    developer('write'),
    withRelease,
    ARCADE_RELEASE_DOCS.check,
    async (ctx) => {
      const game = await developerGame(ctx, { move: true, publishing: true });
      const release = await findRelease(ctx.services.knex, game.app_id, ctx.state.input.params.rid as string);
      // No check connects into a blocked network: refused first, as submit and live do. A host the guard
      // cannot reach is the check's to report, in its `error`.
      await refuseBlockedNetworks(ctx.services.knex, release, { passUnreachable: true });
      const check = await checkNow(ctx.services.knex, ctx.services.replies, game.app_id, release.id, 'check');
      ctx.body = { data: { check: presentCheck(check) } };
    },
  );

  api.post(
    '/account/apps/:id/arcade/releases/:rid/submit',
    developer('write', { recent: true }),
    withRelease,
    ARCADE_RELEASE_DOCS.submit,
    async (ctx) => {
      const game = await developerGame(ctx, { move: true, publishing: true, terms: true });
      const { release, check } = await submitRelease(moveServices(ctx), game, ctx.state.input.params.rid as string);
      ctx.body = { data: { release: await releaseAnswer(ctx, game, release.id), check: presentCheck(check) } };
    },
  );

  api.post(
    '/account/apps/:id/arcade/releases/:rid/withdraw',
    developer('write'),
    withRelease,
    ARCADE_RELEASE_DOCS.withdraw,
    async (ctx) => {
      const game = await developerGame(ctx, { move: true, publishing: true });
      const release = await withdrawRelease(ctx.services.knex, game, ctx.state.input.params.rid as string);
      ctx.body = { data: { release: await releaseAnswer(ctx, game, release.id) } };
    },
  );

  api.post(
    '/account/apps/:id/arcade/releases/:rid/live',
    developer('write', { recent: true }),
    withRelease,
    ARCADE_RELEASE_DOCS.live,
    async (ctx) => {
      const game = await developerGame(ctx, { move: true, publishing: true, terms: true });
      const { game: updated, check } = await makeLive(moveServices(ctx), game, ctx.state.input.params.rid as string);
      ctx.body = {
        data: { app: await arcadeRecord(ctx.services.knex, updated, mediaUrlOf(ctx)), check: presentCheck(check) },
      };
    },
  );

  api.post(
    '/account/apps/:id/arcade/remove',
    developer('write', { recent: true }),
    params,
    ARCADE_DEVELOPER_DOCS.remove,
    async (ctx) => {
      const game = await developerGame(ctx, { move: true });
      const removed = await removeGame(ctx.services.knex, game);
      ctx.body = { data: { app: await arcadeRecord(ctx.services.knex, removed, mediaUrlOf(ctx)) } };
    },
  );
}
