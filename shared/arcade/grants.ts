// Players' grants to games (spec: Grant, Player grants; DECISIONS: Arcade): agreeing (with a nickname),
// changing the nickname, revoking and forgetting. Each change that a game's server must learn of records
// its data event in the same transaction, and tells open plays of the game (GRANT_UPDATE).
import type { Knex } from 'knex';
import { fn } from 'objection';
import { ArcadeGame } from './models.js';
import { ArcadeGrant, ArcadePlayer } from './player-models.js';
import { Image } from '../media/models.js';
import { notFound } from '../platform/errors.js';
import { isUuid } from '../platform/validation/uuid.js';
import { recordDataEvent } from './data-events.js';
import { notifyGrantUpdate } from './grant-updates.js';
import { checkNickname } from './nickname-rules.js';
import { processedAbroad } from './presenters.js';
import { limiterFor } from '../platform/rate-limits/attempt-limiter.js';

/** Spec Limits: nickname changes, 10 per account per day. */
const NICKNAME_CHANGES = { name: 'arcade-nickname', failures: 10, windowSeconds: 24 * 3600, reason: 'rate_limited' };

export type GrantRow = Pick<ArcadeGrant, 'account_id' | 'app_id' | 'nickname' | 'scopes' | 'granted_at' | 'revoked_at'>;

function noGrant() {
  return notFound('You have no grant for this game.', 'app_not_found');
}

/** The player id of an account for a game, created on first need. */
export async function playerIdOf(trx: Knex.Transaction, accountId: string, appId: string): Promise<string> {
  // The merge changes nothing; it makes the statement return the row that was there.
  const row = await ArcadePlayer.query(trx)
    .insert({ account_id: accountId, app_id: appId })
    .onConflict(['account_id', 'app_id'])
    .merge({ account_id: accountId })
    .returning('player_id');
  return row.player_id;
}

/** POST /account/arcade/grants: agree to let the game know who the player is. */
export async function agree(knex: Knex, accountId: string, appId: unknown, nicknameInput: unknown) {
  if (typeof appId !== 'string' || !isUuid(appId)) throw notFound('No Arcade game has this id.', 'app_not_found');
  const nickname = checkNickname(nicknameInput);
  return knex.transaction(async (trx) => {
    const game = await ArcadeGame.query(trx).select('app_id').findById(appId).whereNot({ status: 'removed' });
    if (!game) throw notFound('No Arcade game has this id.', 'app_not_found');
    await playerIdOf(trx, accountId, appId);
    const existing = await ArcadeGrant.query(trx).findById([accountId, appId]).forUpdate();
    if (existing && !existing.revoked_at) return { grant: existing, created: false };
    const grant = await ArcadeGrant.query(trx)
      .insert({ account_id: accountId, app_id: appId, nickname, granted_at: fn.now(), revoked_at: null })
      .onConflict(['account_id', 'app_id'])
      .merge(['nickname', 'granted_at', 'revoked_at'])
      .returning('*');
    await notifyGrantUpdate(trx, accountId, appId);
    return { grant: grant as GrantRow, created: true };
  });
}

export async function changeNickname(knex: Knex, accountId: string, appId: string, nicknameInput: unknown) {
  const nickname = checkNickname(nicknameInput);
  if (!isUuid(appId)) throw noGrant();
  // Only a change that is made spends one of the day's 10; the use is taken first, so parallel changes
  // cannot all pass with one left, and given back when the change is refused (no grant).
  return limiterFor(knex, NICKNAME_CHANGES).within([accountId], () =>
    knex.transaction(async (trx) => {
      const current = await ArcadeGrant.query(trx).findById([accountId, appId]).forUpdate();
      if (!current) throw noGrant();
      const [updated] = await ArcadeGrant.query(trx)
        .where({ account_id: accountId, app_id: appId })
        .patch({ nickname })
        .returning('*');
      if (!current.revoked_at && current.nickname !== nickname) {
        const playerId = await playerIdOf(trx, accountId, appId);
        await recordDataEvent(trx, appId, playerId, 'nickname_changed', { nickname });
        await notifyGrantUpdate(trx, accountId, appId);
      }
      return updated as GrantRow;
    }),
  );
}

/** Revoke (the game gets no more tokens), or forget (a new player id next time). Idempotent for revoke. */
export async function revoke(knex: Knex, accountId: string, appId: string, forget: boolean): Promise<void> {
  if (!isUuid(appId)) throw noGrant();
  await knex.transaction(async (trx) => {
    const current = await ArcadeGrant.query(trx).findById([accountId, appId]).forUpdate();
    const player = await ArcadePlayer.query(trx).select('player_id').findById([accountId, appId]);
    if (!current && !player) throw noGrant();
    if (current && !current.revoked_at) {
      await ArcadeGrant.query(trx).findById([accountId, appId]).patch({ revoked_at: fn.now() });
      // A grant always has its player row (playerIdOf makes it first).
      if (!forget) await recordDataEvent(trx, appId, player!.player_id, 'grant_revoked', {});
    }
    if (forget) {
      await ArcadeGrant.query(trx).deleteById([accountId, appId]);
      await ArcadePlayer.query(trx).deleteById([accountId, appId]);
      if (player) await recordDataEvent(trx, appId, player.player_id, 'grant_forgotten', {});
    }
    await notifyGrantUpdate(trx, accountId, appId);
  });
}

/** The active grant of an account for a game, with its player id; null without one. */
export async function activeGrant(knex: Knex | Knex.Transaction, accountId: string, appId: string) {
  const row = await ArcadeGrant.query(knex)
    .alias('g')
    .joinRelated('player', { alias: 'p' })
    .where({ 'g.account_id': accountId, 'g.app_id': appId })
    .whereNull('g.revoked_at')
    .select('g.nickname', 'g.scopes', 'p.player_id')
    .first()
    .castTo<{ nickname: string; scopes: string[]; player_id: string } | undefined>();
  return row ?? null;
}

/** The account's grants, newest first; with `appId`, only that game's (the answer to a change). */
export async function listGrants(knex: Knex, accountId: string, mediaUrl: (key: string) => string, appId?: string) {
  const query = ArcadeGrant.query(knex)
    .alias('g')
    .joinRelated('game', { alias: 'a' })
    .leftJoin('arcade_listings as l', (j) => j.on('l.app_id', 'g.app_id').andOn(knex.raw("l.status = 'approved'")))
    .where('g.account_id', accountId);
  if (appId) query.where('g.app_id', appId);
  // The grant's columns with its game's slug and its approved store page's name and icon.
  const rows = await query
    .orderBy('g.granted_at', 'desc')
    .select('g.*', 'a.slug', 'l.fields', 'l.media')
    .castTo<
      Array<GrantRow & { slug: string; fields: Record<string, unknown> | null; media: Record<string, string> | null }>
    >();
  const iconIds = rows
    .map((r: { media?: Record<string, string> | null }) => r.media?.['icon:0'])
    .filter((id: string | undefined): id is string => typeof id === 'string');
  const icons: Array<{ id: string; storage_key: string }> = iconIds.length
    ? await Image.query(knex).whereIn('id', iconIds).select('id', 'storage_key')
    : [];
  const urlOf = new Map(icons.map((i) => [i.id, mediaUrl(i.storage_key)]));
  return rows.map(
    (r: GrantRow & { slug: string; fields: Record<string, unknown> | null; media: Record<string, string> | null }) =>
      presentGrant(
        r,
        r.slug,
        (r.fields?.name as string | undefined) ?? null,
        urlOf.get(r.media?.['icon:0'] ?? '') ?? null,
        r.fields?.controller_country ?? null,
      ),
  );
}

/** A grant as every grant answer shows it; the country is the approved store page's (null without one). */
export function presentGrant(
  grant: GrantRow,
  slug: string,
  name: string | null,
  iconUrl: string | null,
  controllerCountry: unknown,
) {
  return {
    app_id: grant.app_id,
    slug,
    name,
    icon_url: iconUrl,
    scopes: grant.scopes,
    nickname: grant.nickname,
    processed_abroad: processedAbroad(controllerCountry),
    granted_at: new Date(grant.granted_at).toISOString(),
    revoked_at: grant.revoked_at ? new Date(grant.revoked_at).toISOString() : null,
  };
}
