// The development URL (spec: Development URL, GET/PUT/DELETE .../override): where the owner's test launch
// opens their game, on their own machine or a public https host, for 24 hours from each save. A public host
// must resolve to public addresses only (looked up through the outbound guard; 60 lookups an hour per
// account, counted before the lookup); 20 kept saves a day per app (refusals spend none).
import type { Knex } from 'knex';
import { conflict, invalidRequest, notFound } from '../errors.js';
import { checkHost } from '../net/checked-host.js';
import { isOutboundRefused } from '../net/outbound-refused.js';
import { isUuid } from '../validation/uuid.js';
import { limiterFor } from '../auth/attempts.js';
import { type ArcadeApp } from './games.js';
import { notifyOverrideChange } from './grant-updates.js';
import { checkOverrideUrl } from './url-rules.js';

export const OVERRIDE_LIFETIME_MS = 24 * 3600 * 1000;
const SAVES = { name: 'arcade-override-save', failures: 20, windowSeconds: 24 * 3600, reason: 'rate_limited' };
const LOOKUPS = { name: 'arcade-override-lookup', failures: 60, windowSeconds: 3600, reason: 'rate_limited' };
/** The statuses a development URL may build on (spec: PUT .../override `release_id`). */
const TESTABLE = ['draft', 'submitted', 'in_review', 'approved'];

interface OverrideRow {
  app_id: string;
  url: string;
  origin: string;
  host: string;
  loopback: boolean;
  release_id: string;
  set_at: Date;
  expires_at: Date;
}

/** Why the saved URL cannot be opened now, or null (spec: `blocked_reason`). */
async function blockedReason(knex: Knex, game: ArcadeApp, row: OverrideRow, serviceHost: string, now: number) {
  if (new Date(row.expires_at).getTime() <= now) return 'override_expired';
  if (game.status === 'removed' || game.status === 'suspended' || game.notice_kind) return 'not_playable';
  const release = await knex('arcade_releases').where({ id: row.release_id, app_id: game.app_id }).first('status');
  if (!release || !TESTABLE.includes(release.status)) return 'release_not_found';
  if (!(await knex('arcade_listings').where({ app_id: game.app_id }).first('id'))) return 'listing_not_found';
  if (!row.loopback) {
    const claim = await knex('arcade_claims').where({ kind: 'origin', value: row.origin }).first('app_id');
    if (claim && claim.app_id !== game.app_id) return 'origin_in_use';
  }
  try {
    checkOverrideUrl(row.url, { serviceHost });
  } catch {
    return 'url_denied';
  }
  return null;
}

export async function presentOverride(knex: Knex, game: ArcadeApp, serviceHost: string, now = Date.now()) {
  const row = (await knex('arcade_overrides').where({ app_id: game.app_id }).first()) as OverrideRow | undefined;
  if (!row) return null;
  const [release, reason, left] = await Promise.all([
    knex('arcade_releases').where({ id: row.release_id }).first('number'),
    blockedReason(knex, game, row, serviceHost, now),
    limiterFor(knex, SAVES).remaining(game.app_id),
  ]);
  return {
    url: row.url,
    origin: row.origin,
    host: row.host,
    loopback: row.loopback,
    release_id: row.release_id,
    release_number: (release?.number as number | undefined) ?? null,
    set_at: new Date(row.set_at).toISOString(),
    expires_at: new Date(row.expires_at).toISOString(),
    expired: new Date(row.expires_at).getTime() <= now,
    ready: reason === null,
    blocked_reason: reason,
    changes_left: left,
  };
}

export async function saveOverride(
  knex: Knex,
  accountId: string,
  game: ArcadeApp,
  input: { url: unknown; release_id: unknown },
  serviceHost: string,
) {
  const url = checkOverrideUrl(input.url, { serviceHost });
  if (typeof input.release_id !== 'string' || !isUuid(input.release_id)) {
    throw invalidRequest('release_id must be the id of one of this game’s releases.', {
      reason: 'fields_invalid',
      field: 'release_id',
    });
  }
  const release = await knex('arcade_releases').where({ id: input.release_id, app_id: game.app_id }).first('status');
  if (!release || !TESTABLE.includes(release.status)) {
    throw notFound('No release of this game can be tested with this id.', 'release_not_found');
  }
  const saves = limiterFor(knex, SAVES);
  await saves.check([game.app_id]);
  if (!url.loopback) {
    // Counted before the lookup, refused or not: a lookup is work done for the caller.
    await limiterFor(knex, LOOKUPS).spend([accountId]);
    try {
      await checkHost(url.hostname);
    } catch (error) {
      if (!isOutboundRefused(error)) throw error;
      throw invalidRequest('The host must resolve to public addresses only.', {
        reason: 'url_denied',
        field: 'url',
        detail: error.reason === 'dns_failed' ? 'dns_failed' : 'not_public',
      });
    }
    const claim = await knex('arcade_claims').where({ kind: 'origin', value: url.origin }).first('app_id');
    if (claim && claim.app_id !== game.app_id) {
      throw conflict('origin_in_use', { field: 'url' }, 'Another game uses this origin.');
    }
  }
  const now = new Date();
  await knex('arcade_overrides')
    .insert({
      app_id: game.app_id,
      url: url.url,
      origin: url.origin,
      host: url.host,
      loopback: url.loopback,
      release_id: input.release_id,
      set_at: now,
      expires_at: new Date(now.getTime() + OVERRIDE_LIFETIME_MS),
    })
    .onConflict('app_id')
    .merge();
  // A game open on the previous URL learns of it (it closes when the origin changed).
  await notifyOverrideChange(knex, game.app_id);
  await saves.fail([game.app_id]);
}

export async function clearOverride(knex: Knex, game: ArcadeApp): Promise<void> {
  await knex('arcade_overrides').where({ app_id: game.app_id }).delete();
  await notifyOverrideChange(knex, game.app_id);
}
