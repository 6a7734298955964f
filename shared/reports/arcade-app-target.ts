// The target of an ARCADE_APP report: the game's app, its publishing account (the spec takes the account
// from the game, not from `username`) and, with `instance_id`, the release, origin and latest check of
// that play. PENDING: Arcade apps are not modelled yet (another issue adds them), so no app can be found
// and every ARCADE_APP report answers 404 `not_found`. Nothing is faked here: when the Arcade tables
// exist, this function looks the app up, builds its snapshot, and queues the hourly URL re-check the
// spec asks for.
import type { Knex } from 'knex';
import type { Account } from '../accounts/account.js';
import type { ReportTarget } from './report-targets.js';

export async function findArcadeAppTarget(
  _knex: Knex,
  _reporter: Account,
  _input: { id: string; instance_id?: string },
): Promise<ReportTarget | null> {
  return null;
}
