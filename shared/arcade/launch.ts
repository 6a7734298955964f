// Launching a game (DECISIONS: Arcade, launch): the live release for players (kind `live`, mode live), or
// the owner's development URL (kind `override`, mode test). Each launch records its play (instance) with
// its kind and mode, the release, origin and latest check of that moment, so a report can cite it, and
// mints an identity token when the release asks for `identify` (which needs the player's active grant
// first).
import type { Knex } from 'knex';
import type { Account } from '../accounts/account.js';
import { forbidden, notFound } from '../platform/errors.js';
import { signToken } from '../identity/signing-keys.js';
import { activeGrant } from './grants.js';
import { overrideBlock, savedOverride } from './override.js';
import type { OverrideUrlSettings } from './url-rules.js';
import type { ArcadeApp, ReleaseRow } from './rows.js';
import { ArcadeGame, ArcadeRelease } from './models.js';
import { ArcadeInstance } from './player-models.js';

/** What a launch opened: the store's live release, or the owner's development URL. */
export type LaunchKind = 'live' | 'override';

/** The spec pairs them (and a check constraint holds the stored play to it): an override launch is a test. */
const MODE_OF: Record<LaunchKind, 'live' | 'test'> = { live: 'live', override: 'test' };

/** DECISIONS: identity tokens live 15 minutes. */
export const IDENTITY_TTL_SECONDS = 15 * 60;

export interface LaunchDeps {
  secret: string;
  /** PUBLIC_URL: the tokens' `iss`. */
  issuer: string;
}

function notPlayable() {
  return forbidden('not_playable', {}, 'This game cannot be opened now.');
}

/** Players may open a game that is listed, carries no notice and has a live release. */
function playable(game: ArcadeApp | undefined): game is ArcadeApp {
  return game !== undefined && game.status === 'listed' && game.notice_kind === null && game.live_release_id !== null;
}

async function identityFor(
  knex: Knex,
  deps: LaunchDeps,
  account: Account,
  game: ArcadeApp,
  release: ReleaseRow,
  iid: string,
) {
  if (!release.scopes.includes('identify')) return null;
  const grant = await activeGrant(knex, account.id, game.app_id);
  if (!grant) throw forbidden('grant_required', {}, 'This game asks who you are: agree to it first.');
  return signToken(
    knex,
    deps.secret,
    { iss: deps.issuer, aud: game.app_id, sub: grant.player_id, nickname: grant.nickname, scope: 'identify', iid },
    { expiresInSeconds: IDENTITY_TTL_SECONDS },
  );
}

async function recordPlay(
  knex: Knex,
  account: Account,
  game: ArcadeApp,
  kind: LaunchKind,
  release: ReleaseRow,
  place: { url: string; origin: string },
) {
  const row = await ArcadeInstance.query(knex)
    .insert({
      account_id: account.id,
      app_id: game.app_id,
      kind,
      mode: MODE_OF[kind],
      release_id: release.id,
      release_number: release.number,
      url: place.url,
      origin: place.origin,
      check_id: release.last_check_id,
    })
    .returning('id');
  return row.id;
}

export async function launchLive(knex: Knex, deps: LaunchDeps, account: Account, slug: string) {
  const game = await ArcadeGame.query(knex).findOne({ slug });
  if (!game) throw notFound('No Arcade game has this slug.', 'app_not_found');
  if (!playable(game)) throw notPlayable();
  const release = (await ArcadeRelease.query(knex).findById(game.live_release_id!))!;
  // The grant is asked for before the play is recorded: a refused launch leaves nothing behind.
  if (release.scopes.includes('identify') && !(await activeGrant(knex, account.id, game.app_id))) {
    throw forbidden('grant_required', {}, 'This game asks who you are: agree to it first.');
  }
  const iid = await recordPlay(knex, account, game, 'live', release, {
    url: release.entry_url,
    origin: release.entry_origin,
  });
  return {
    instance_id: iid,
    kind: 'live' as const,
    mode: MODE_OF.live,
    url: release.entry_url,
    release_number: release.number,
    identity: await identityFor(knex, deps, account, game, release, iid),
  };
}

/**
 * The owner's test launch on the development URL: 404 `override_not_found` without one, then whatever
 * GET .../override reports in `blocked_reason` (overrideBlock decides both), as that reason's error.
 */
export async function launchOverride(
  knex: Knex,
  deps: LaunchDeps,
  account: Account,
  game: ArcadeApp,
  settings: OverrideUrlSettings,
) {
  const saved = await savedOverride(knex, game.app_id);
  if (!saved) throw notFound('No development URL is saved for this game.', 'override_not_found');
  const blocked = await overrideBlock(knex, game, saved, settings, Date.now());
  if (blocked) throw blocked.refusal;
  const release = await ArcadeRelease.query(knex).findOne({ id: saved.release_id, app_id: game.app_id });
  // Gone between the two reads: as overrideBlock would now say.
  if (!release) throw notFound('The base release can no longer be tested.', 'release_not_found');
  if (release.scopes.includes('identify') && !(await activeGrant(knex, account.id, game.app_id))) {
    throw forbidden('grant_required', {}, 'The release asks who you are: agree to your own game first.');
  }
  const iid = await recordPlay(knex, account, game, 'override', release, { url: saved.url, origin: saved.origin });
  return {
    instance_id: iid,
    kind: 'override' as const,
    mode: MODE_OF.override,
    url: saved.url,
    release_number: release.number,
    identity: await identityFor(knex, deps, account, game, release, iid),
  };
}
