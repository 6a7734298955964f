// What every developer route of a game asks first (spec arcade.md: Endpoints, Authentication): a session
// that passed two-factor (a key is 403, a session owing its factor `mfa_required`), the caller's own app
// (another's is 404 `app_not_found`), a game on it, for the routes that change it a game not removed, and
// for the routes that publish, no publisher block.
import type { Middleware } from 'koa';
import { acceptedCurrentTerms, appRemoved, ownGame } from '../../../shared/arcade/games.js';
import type { OverrideUrlSettings, UrlRuleSettings } from '../../../shared/arcade/url-rules.js';
import { config } from '../../../shared/platform/config.js';
import { forbidden } from '../../../shared/platform/errors.js';
import { publisherBlocked } from '../../../shared/moderation/account-sanctions.js';
import type { Allowance } from '../../../shared/keys/scopes.js';
import type { AppContext, AppState } from '../../context.js';
import { sessionCaller, sessionOnly } from '../../middleware/access.js';
import type { ArcadeApp } from '../../../shared/arcade/rows.js';

export function developer(allowance: Allowance, options: { recent?: boolean } = {}): Middleware<AppState> {
  return sessionOnly({ allowance, mfaVerified: true, recent: options.recent, suspendedReason: 'banned' });
}

/**
 * What Arcade's URL rules take from the configuration, read when the request runs rather than when the
 * app starts: tests open and close the outbound guard's test door, and switch internationalized names
 * off and on, between requests.
 */
export const urlRuleSettings = (): UrlRuleSettings => ({
  testHosts: config().outbound.testHosts,
  idnHosts: config().arcade.idnHosts,
});

/** What the development URL's rules take: the service's host (PUBLIC_URL's, port kept) and the test door. */
export const overrideUrlSettings = (ctx: AppContext): OverrideUrlSettings => ({
  serviceHost: new URL(ctx.services.publicOrigin).host,
  ...urlRuleSettings(),
});

export interface GameRules {
  /**
   * A developer move (listing, media, release create and change, check, submit, withdraw, live, remove):
   * 409 `app_removed` once the game is removed. Reads still answer, with status `removed`.
   */
  move?: boolean;
  /** Listing, media, release, check, submit, live and override routes: 403 `publisher_blocked`. */
  publishing?: boolean;
  /** Submitting and making live: 403 `terms_required` until the current terms are accepted. */
  terms?: boolean;
}

/** The game of the path's app for its owner, after the route's rules. */
export async function developerGame(ctx: AppContext, rules: GameRules = {}): Promise<ArcadeApp> {
  const { knex } = ctx.services;
  const { account } = sessionCaller(ctx);
  const game = await ownGame(knex, account.id, ctx.state.input.params.id as string);
  // First of the game's own refusals: nothing else (terms, a block lifted) would make the move possible.
  if (rules.move && game.status === 'removed') throw appRemoved();
  if (rules.publishing && (await publisherBlocked(knex, account.id))) {
    throw forbidden('publisher_blocked', {}, 'Moderation has blocked this account from publishing.');
  }
  if (rules.terms && !(await acceptedCurrentTerms(knex, account.id))) {
    throw forbidden('terms_required', { field: 'terms_version' }, 'Accept the current developer terms first.');
  }
  return game;
}
