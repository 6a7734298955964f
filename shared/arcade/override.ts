// The development URL (spec: Development URL, GET/PUT/DELETE .../override): where the owner's test launch
// opens their game, on their own machine or a public https host, for 24 hours from each save. A public host
// must resolve to public addresses only, none in a network Arcade blocks (looked up through the outbound
// guard; 60 lookups an hour per account, counted before the lookup); 20 kept saves a day per app
// (refusals spend none).
import type { Knex } from 'knex';
import { conflict, forbidden, invalidRequest, isApiError, notFound, type ApiError } from '../platform/errors.js';
import { checkHost } from '../platform/net/checked-host.js';
import { isOutboundRefused } from '../platform/net/outbound-refused.js';
import { isUuid } from '../platform/validation/uuid.js';
import { notifyOverrideChange } from './grant-updates.js';
import { refuseBlockedAddresses } from './host-rules.js';
import { checkOverrideUrl, type OverrideUrlSettings } from './url-rules.js';
import { limiterFor } from '../platform/rate-limits/attempt-limiter.js';
import type { ArcadeApp, OverrideRow } from './rows.js';
import { ArcadeClaim, ArcadeListing, ArcadeOverride, ArcadeRelease } from './models.js';

export const OVERRIDE_LIFETIME_MS = 24 * 3600 * 1000;
const SAVES = { name: 'arcade-override-save', failures: 20, windowSeconds: 24 * 3600, reason: 'rate_limited' };
const LOOKUPS = { name: 'arcade-override-lookup', failures: 60, windowSeconds: 3600, reason: 'rate_limited' };
/** The statuses a development URL may build on (spec: PUT .../override `release_id`). */
const TESTABLE = ['draft', 'submitted', 'in_review', 'approved'];

/** Spec: `blocked_reason`, in the order it is worked out. */
export type BlockedReason =
  'override_expired' | 'not_playable' | 'release_not_found' | 'listing_not_found' | 'origin_in_use' | 'url_denied';

export interface OverrideBlock {
  reason: BlockedReason;
  /** What a launch answers for it: the spec's error of the same reason. */
  refusal: ApiError;
}

function block(reason: BlockedReason, refusal: ApiError): OverrideBlock {
  return { reason, refusal };
}

/**
 * Why the saved URL cannot be opened now, or null (spec: `blocked_reason`). The one place that decides it:
 * GET .../override shows the reason and the test launch refuses with its error, so a URL the owner reads as
 * ready is the one that opens.
 */
export async function overrideBlock(
  knex: Knex,
  game: ArcadeApp,
  row: OverrideRow,
  settings: OverrideUrlSettings,
  now: number,
): Promise<OverrideBlock | null> {
  if (new Date(row.expires_at).getTime() <= now) {
    return block('override_expired', conflict('override_expired', {}, 'The development URL expired: save it again.'));
  }
  if (game.status === 'removed' || game.status === 'suspended' || game.notice_kind) {
    return block('not_playable', forbidden('not_playable', {}, 'This game cannot be opened now.'));
  }
  const release = await ArcadeRelease.query(knex).select('status').findOne({ id: row.release_id, app_id: game.app_id });
  if (!release || !TESTABLE.includes(release.status)) {
    return block(
      'release_not_found',
      notFound('The base release can no longer be tested: save the URL with another.', 'release_not_found'),
    );
  }
  if (!(await ArcadeListing.query(knex).select('id').findOne({ app_id: game.app_id }))) {
    return block('listing_not_found', notFound('Save a store page draft first.', 'listing_not_found'));
  }
  if (!row.loopback) {
    const claim = await ArcadeClaim.query(knex).select('app_id').findById(['origin', row.origin]);
    if (claim && claim.app_id !== game.app_id) {
      return block('origin_in_use', conflict('origin_in_use', { field: 'url' }, 'Another game uses this origin.'));
    }
  }
  try {
    checkOverrideUrl(row.url, settings);
  } catch (error) {
    const denied =
      isApiError(error) && error.members.reason === 'url_denied'
        ? error
        : invalidRequest('The saved URL is no longer accepted: save another.', { reason: 'url_denied', field: 'url' });
    return block('url_denied', denied);
  }
  return null;
}

/** The saved development URL of a game, or undefined. */
export async function savedOverride(knex: Knex, appId: string): Promise<OverrideRow | undefined> {
  return ArcadeOverride.query(knex).findById(appId);
}

/** The saved development URL as GET .../override answers it (null: none), with what it needs read. */
export async function loadOverride(knex: Knex, game: ArcadeApp, settings: OverrideUrlSettings, now = Date.now()) {
  const row = await savedOverride(knex, game.app_id);
  if (!row) return null;
  const [release, blocked, left] = await Promise.all([
    ArcadeRelease.query(knex).select('number').findById(row.release_id),
    overrideBlock(knex, game, row, settings, now),
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
    ready: blocked === null,
    blocked_reason: blocked?.reason ?? null,
    changes_left: left,
  };
}

export async function saveOverride(
  knex: Knex,
  accountId: string,
  game: ArcadeApp,
  input: { url: unknown; release_id: unknown },
  settings: OverrideUrlSettings,
) {
  const url = checkOverrideUrl(input.url, settings);
  if (typeof input.release_id !== 'string' || !isUuid(input.release_id)) {
    throw invalidRequest('release_id must be the id of one of this game’s releases.', {
      reason: 'fields_invalid',
      field: 'release_id',
    });
  }
  const releaseId = input.release_id;
  const release = await ArcadeRelease.query(knex).select('status').findOne({ id: releaseId, app_id: game.app_id });
  if (!release || !TESTABLE.includes(release.status)) {
    throw notFound('No release of this game can be tested with this id.', 'release_not_found');
  }
  // Only a kept save spends one of the day's 20: the use is taken first, so parallel saves cannot all
  // pass with one left, and every refusal below gives it back.
  await limiterFor(knex, SAVES).within([game.app_id], async () => {
    if (!url.loopback) {
      // Counted before the lookup, refused or not: a lookup is work done for the caller.
      await limiterFor(knex, LOOKUPS).spend([accountId]);
      let addresses: string[];
      try {
        addresses = (await checkHost(url.hostname)).addresses;
      } catch (error) {
        if (!isOutboundRefused(error)) throw error;
        throw invalidRequest('The host must resolve to public addresses only.', {
          reason: 'url_denied',
          field: 'url',
          detail: error.reason === 'dns_failed' ? 'dns_failed' : 'not_public',
        });
      }
      // Every answer, as for a release's hosts: the game will be opened from any of them.
      await refuseBlockedAddresses(knex, addresses, 'url');
      const claim = await ArcadeClaim.query(knex).select('app_id').findById(['origin', url.origin]);
      if (claim && claim.app_id !== game.app_id) {
        throw conflict('origin_in_use', { field: 'url' }, 'Another game uses this origin.');
      }
    }
    const now = new Date();
    await ArcadeOverride.query(knex)
      .insert({
        app_id: game.app_id,
        url: url.url,
        origin: url.origin,
        host: url.host,
        loopback: url.loopback,
        release_id: releaseId,
        set_at: now,
        expires_at: new Date(now.getTime() + OVERRIDE_LIFETIME_MS),
      })
      .onConflict('app_id')
      .merge();
    // A game open on the previous URL learns of it (it closes when the origin changed).
    await notifyOverrideChange(knex, game.app_id);
  });
}

export async function clearOverride(knex: Knex, game: ArcadeApp): Promise<void> {
  await ArcadeOverride.query(knex).deleteById(game.app_id);
  await notifyOverrideChange(knex, game.app_id);
}
