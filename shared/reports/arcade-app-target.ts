// The target of an ARCADE_APP report: the game's app (by its id), its publishing account (the spec takes
// the account from the game, not from `username`), and a snapshot for moderation of what players got at
// that moment: the store page, the live release, its origin and latest check. With `instance_id`, the
// snapshot also holds the play it came from (release, origin and check at launch); an id that is no play
// of this game leaves `instance` null rather than guess.
import type { Knex } from 'knex';
import type { Account } from '../accounts/account.js';
import { invalidRequest } from '../platform/errors.js';
import { isUuid } from '../platform/validation/uuid.js';
import type { ReportTarget } from './report-targets.js';
import { ArcadeCheck, ArcadeGame, ArcadeListing, ArcadeRelease } from '../arcade/models.js';
import { ArcadeInstance } from '../arcade/player-models.js';

export async function findArcadeAppTarget(
  knex: Knex,
  reporter: Account,
  input: { id: string; instance_id?: string },
): Promise<ReportTarget | null> {
  if (!isUuid(input.id)) return null;
  const game = await ArcadeGame.query(knex).findById(input.id).whereNot({ status: 'removed' });
  if (!game) return null;
  if (game.account_id === reporter.id) {
    throw invalidRequest('You cannot report your own game.', { field: 'id', reason: 'not_allowed' });
  }
  const [listing, live] = await Promise.all([
    ArcadeListing.query(knex)
      .select('fields')
      .where({ app_id: game.app_id, status: 'approved' })
      .orderBy('number', 'desc')
      .first(),
    game.live_release_id ? ArcadeRelease.query(knex).findById(game.live_release_id) : undefined,
  ]);
  const check = live?.last_check_id ? await ArcadeCheck.query(knex).findById(live.last_check_id) : undefined;
  // The play the report came from, when it is this game's: its release, origin and check at launch.
  const play =
    input.instance_id && isUuid(input.instance_id)
      ? await ArcadeInstance.query(knex).findOne({ id: input.instance_id, app_id: game.app_id })
      : undefined;
  const playCheck = play?.check_id ? await ArcadeCheck.query(knex).select('result').findById(play.check_id) : undefined;
  return {
    accountId: game.account_id as string,
    targetId: game.app_id as string,
    snapshot: {
      slug: game.slug,
      status: game.status,
      notice: game.notice_kind,
      name: listing?.fields?.name ?? null,
      tagline: listing?.fields?.tagline ?? null,
      release: live ? { id: live.id, number: live.number, entry_url: live.entry_url, origin: live.entry_origin } : null,
      latest_check: check ? { ...check.result, checked_at: new Date(check.created_at).toISOString() } : null,
      instance: play
        ? {
            id: play.id,
            mode: play.mode,
            release_number: play.release_number,
            url: play.url,
            origin: play.origin,
            check: playCheck?.result ?? null,
            at: new Date(play.created_at).toISOString(),
          }
        : null,
    },
  };
}
