// The target of an ARCADE_APP report: the game's app (by its id), its publishing account (the spec takes
// the account from the game, not from `username`), and a snapshot for moderation of what players got at
// that moment: the store page, the live release, its origin and latest check. With `instance_id`, the
// snapshot names the play it came from; plays are recorded by the player side (launches), and until a
// play is found the snapshot says so (`instance: null`) rather than guess.
import type { Knex } from 'knex';
import type { Account } from '../accounts/account.js';
import { invalidRequest } from '../errors.js';
import { isUuid } from '../validation/uuid.js';
import type { ReportTarget } from './report-targets.js';

export async function findArcadeAppTarget(
  knex: Knex,
  reporter: Account,
  input: { id: string; instance_id?: string },
): Promise<ReportTarget | null> {
  if (!isUuid(input.id)) return null;
  const game = await knex('arcade_apps').where({ app_id: input.id }).whereNot({ status: 'removed' }).first();
  if (!game) return null;
  if (game.account_id === reporter.id) {
    throw invalidRequest('You cannot report your own game.', { field: 'id', reason: 'not_allowed' });
  }
  const [listing, live] = await Promise.all([
    knex('arcade_listings')
      .where({ app_id: game.app_id, status: 'approved' })
      .orderBy('number', 'desc')
      .first('fields'),
    game.live_release_id ? knex('arcade_releases').where({ id: game.live_release_id }).first() : undefined,
  ]);
  const check = live?.last_check_id ? await knex('arcade_checks').where({ id: live.last_check_id }).first() : undefined;
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
      instance: null,
    },
  };
}
