// Moderation of Arcade (DECISIONS: Staff and moderation): the review queue, decisions on releases and
// store pages, and actions on games with the notices the spec defines. Every decision is recorded with its
// moderator; what the developer sees (the review, the notice, the timeline) never names them.
// Each decision the developer is mailed about also becomes their `arcade_review` notification, from
// nobody (actor null), in the decision's transaction: a release approved, rejected or revoked (taking it
// in review is not a decision), a store page approved or rejected, and an action on the game (suspend,
// flag, hide, restore), whether a moderator or the service's own checks took it.
import type { Knex } from 'knex';
import { fn, type PartialModelObject } from 'objection';
import type { Account } from '../accounts/account.js';
import { queueEmail } from '../platform/email/outbox.js';
import { notify } from '../notifications/notify.js';
import { conflict, invalidRequest, notFound } from '../platform/errors.js';
import { recordAction } from '../moderation/moderator-actions.js';
import { isUuid } from '../platform/validation/uuid.js';
import { recordEvent } from './games.js';
import type { ArcadeApp, CheckRow, ListingRow, ReleaseRow } from './rows.js';
import { ArcadeCheck, ArcadeGame, ArcadeListing, ArcadeRelease, type StoredReview } from './models.js';

export const RELEASE_DECISIONS = ['in_review', 'approve', 'reject', 'revoke'] as const;
export const LISTING_DECISIONS = ['approve', 'reject'] as const;
export const APP_ACTIONS = ['suspend', 'flag', 'hide', 'restore'] as const;
/** Why a game is hidden (spec: App Arcade record `notice`). */
export const HIDDEN_REASONS = ['invariant', 'provider_change', 'reports'] as const;

export interface Decision {
  reasons?: string[];
  note?: string | null;
}

/** Mails the game's developer through the outbox, in the decision's transaction. */
export async function emailDeveloper(trx: Knex.Transaction, game: ArcadeApp, subject: string, text: string) {
  const owner = await trx('accounts').where({ id: game.account_id }).first('email');
  if (owner) await queueEmail(trx, { to: owner.email, subject, text, kind: 'arcade.notice' });
}

async function lockedGame(trx: Knex.Transaction, appId: string): Promise<ArcadeApp> {
  const game = await ArcadeGame.query(trx).findById(appId).forUpdate();
  if (!game) throw notFound('No Arcade game has this id.', 'app_not_found');
  return game;
}

const review = (decision: string, input: Decision): StoredReview => ({
  decision,
  reasons: input.reasons ?? [],
  note: input.note ?? null,
});

/** The developer's notification of a decision on their game (`data` as the decision has it). */
const notifyDeveloper = (trx: Knex.Transaction, game: ArcadeApp, data: Record<string, unknown>) =>
  notify(trx, {
    recipientId: game.account_id,
    kind: 'arcade_review',
    actorId: null,
    subject: { kind: 'ARCADE_GAME', id: game.app_id },
    data,
  });

/**
 * Submitted store pages and releases, oldest first, for moderators. A removed game's are left out: it can
 * never be listed or played again, so there is nothing left to decide (DECISIONS: Fine print).
 */
export async function reviewQueue(knex: Knex) {
  const [releases, listings] = await Promise.all([
    ArcadeRelease.query(knex)
      .alias('r')
      .joinRelated('game', { alias: 'a' })
      .whereIn('r.status', ['submitted', 'in_review'])
      .whereNot('a.status', 'removed')
      .orderBy([{ column: 'r.submitted_at' }, { column: 'r.id' }])
      .select('r.*', 'a.slug')
      .castTo<Array<ReleaseRow & { slug: string }>>(),
    ArcadeListing.query(knex)
      .alias('l')
      .joinRelated('game', { alias: 'a' })
      .where('l.status', 'submitted')
      .whereNot('a.status', 'removed')
      .orderBy([{ column: 'l.submitted_at' }, { column: 'l.id' }])
      .select('l.*', 'a.slug')
      .castTo<Array<ListingRow & { slug: string }>>(),
  ]);
  const checks: CheckRow[] = releases.length
    ? await ArcadeCheck.query(knex).whereIn(
        'id',
        releases.map((r) => r.last_check_id).filter((id): id is string => id !== null),
      )
    : [];
  const byId = new Map(checks.map((c) => [c.id, c]));
  return {
    releases: releases.map((r: ReleaseRow & { slug: string }) => ({
      id: r.id,
      app_id: r.app_id,
      slug: r.slug,
      number: r.number,
      status: r.status,
      entry_url: r.entry_url,
      scopes: r.scopes,
      capabilities: r.capabilities,
      third_parties: r.third_parties,
      data_events_url: r.data_events_url,
      notes: r.notes,
      submitted_at: r.submitted_at,
      last_check: byId.get(r.last_check_id ?? '')?.result ?? null,
    })),
    listings: listings.map((l: ListingRow & { slug: string }) => ({
      id: l.id,
      app_id: l.app_id,
      slug: l.slug,
      number: l.number,
      fields: l.fields,
      media: l.media,
      submitted_at: l.submitted_at,
    })),
  };
}

const FROM: Record<(typeof RELEASE_DECISIONS)[number], string[]> = {
  in_review: ['submitted'],
  approve: ['submitted', 'in_review'],
  reject: ['submitted', 'in_review'],
  revoke: ['approved'],
};
const TO = { in_review: 'in_review', approve: 'approved', reject: 'rejected', revoke: 'revoked' } as const;

export async function decideRelease(
  knex: Knex,
  moderator: Account,
  releaseId: string,
  decision: (typeof RELEASE_DECISIONS)[number],
  input: Decision,
) {
  if (!isUuid(releaseId)) throw notFound('No release has this id.', 'release_not_found');
  return knex.transaction(async (trx) => {
    const found = await ArcadeRelease.query(trx).select('app_id').findById(releaseId);
    if (!found) throw notFound('No release has this id.', 'release_not_found');
    const game = await lockedGame(trx, found.app_id);
    const release = (await ArcadeRelease.query(trx).findById(releaseId).forUpdate())!;
    if (!FROM[decision].includes(release.status)) {
      throw conflict('invalid_transition', {}, `A ${release.status} release cannot be given "${decision}".`);
    }
    const changes: PartialModelObject<ArcadeRelease> = { status: TO[decision] };
    if (decision !== 'in_review')
      Object.assign(changes, { review: review(decision, input), reviewer_id: moderator.id, reviewed_at: fn.now() });
    if (decision === 'approve') {
      // Making live later compares a fresh check with the one this approval saw.
      const check = release.last_check_id ? await ArcadeCheck.query(trx).findById(release.last_check_id) : undefined;
      Object.assign(changes, {
        approved_at: fn.now(),
        approval_sha256: (check?.result.entry_sha256 as string | undefined) ?? null,
        approval_provider: (check?.result.provider as string | undefined) ?? null,
      });
    }
    const [updated] = await ArcadeRelease.query(trx).where({ id: release.id }).patch(changes).returning('*');
    if (decision === 'revoke' && game.live_release_id === release.id) {
      // A revoked release stops being playable at once.
      await ArcadeGame.query(trx).findById(game.app_id).patch({ live_release_id: null });
    }
    await recordEvent(trx, game.app_id, `release_${TO[decision]}`, {
      number: release.number,
      reasons: input.reasons ?? [],
    });
    await recordAction(
      trx,
      moderator.id,
      'review_release',
      { kind: 'release', id: release.id },
      { decision, ...input },
    );
    if (decision !== 'in_review') {
      await notifyDeveloper(trx, game, {
        target: 'release',
        decision,
        version: release.number,
        reasons: input.reasons ?? [],
        note: input.note ?? null,
      });
      await emailDeveloper(
        trx,
        game,
        `Release ${release.number} of ${game.slug}: ${TO[decision]}`,
        `Release ${release.number} of your Arcade game ${game.slug} was ${TO[decision]}.` +
          (input.reasons?.length ? `\nReasons: ${input.reasons.join(', ')}` : '') +
          (input.note ? `\nNote: ${input.note}` : ''),
      );
    }
    return updated as ReleaseRow;
  });
}

export async function decideListing(
  knex: Knex,
  moderator: Account,
  listingId: string,
  decision: (typeof LISTING_DECISIONS)[number],
  input: Decision,
) {
  if (!isUuid(listingId)) throw notFound('No store page has this id.', 'listing_not_found');
  return knex.transaction(async (trx) => {
    const found = await ArcadeListing.query(trx).select('app_id').findById(listingId);
    if (!found) throw notFound('No store page has this id.', 'listing_not_found');
    const game = await lockedGame(trx, found.app_id);
    const listing = (await ArcadeListing.query(trx).findById(listingId).forUpdate())!;
    if (listing.status !== 'submitted') {
      throw conflict('invalid_transition', {}, `A ${listing.status} store page cannot be decided.`);
    }
    const status = decision === 'approve' ? 'approved' : 'rejected';
    if (decision === 'approve') {
      await ArcadeListing.query(trx).where({ app_id: game.app_id, status: 'approved' }).patch({ status: 'superseded' });
      // The first approval lists the game; a later one only changes what players see.
      await ArcadeGame.query(trx)
        .findById(game.app_id)
        .patch({ approved_at: fn.now(), ...(game.status === 'draft' ? { status: 'listed' as const } : {}) });
    }
    const [updated] = await ArcadeListing.query(trx)
      .where({ id: listing.id })
      .patch({ status, review: review(decision, input), reviewer_id: moderator.id, reviewed_at: fn.now() })
      .returning('*');
    await recordEvent(trx, game.app_id, `listing_${status}`, { number: listing.number, reasons: input.reasons ?? [] });
    await notifyDeveloper(trx, game, {
      target: 'listing',
      decision,
      version: listing.number,
      reasons: input.reasons ?? [],
      note: input.note ?? null,
    });
    await recordAction(
      trx,
      moderator.id,
      'review_listing',
      { kind: 'listing', id: listing.id },
      { decision, ...input },
    );
    await emailDeveloper(
      trx,
      game,
      `Store page of ${game.slug}: ${status}`,
      `The store page of your Arcade game ${game.slug} was ${status}.` +
        (input.reasons?.length ? `\nReasons: ${input.reasons.join(', ')}` : '') +
        (input.note ? `\nNote: ${input.note}` : ''),
    );
    return updated as ListingRow;
  });
}

/**
 * suspend, flag, hide, restore (spec: `notice`). A flagged game keeps status listed but cannot be opened;
 * a hidden one needs a reason of HIDDEN_REASONS; restore clears the notice and lists it again.
 */
export async function actOnGame(
  knex: Knex | Knex.Transaction,
  moderator: Account | null,
  appId: string,
  action: (typeof APP_ACTIONS)[number],
  reason: string | null,
  /** More for the timeline entry (the service's hides say what its checks saw). */
  details: Record<string, unknown> = {},
) {
  if (!isUuid(appId)) throw notFound('No Arcade game has this id.', 'app_not_found');
  if (action === 'hide' && !(HIDDEN_REASONS as readonly string[]).includes(reason ?? '')) {
    throw invalidRequest(`A hidden game's reason is one of ${HIDDEN_REASONS.join(', ')}.`, {
      field: 'reason',
      reason: 'fields_invalid',
    });
  }
  const run = async (trx: Knex.Transaction) => {
    const game = await lockedGame(trx, appId);
    if (game.status === 'removed') throw conflict('invalid_transition', {}, 'A removed game stays removed.');
    const listed = game.approved_at ? 'listed' : 'draft';
    const next: Partial<ArcadeApp> =
      action === 'restore'
        ? { status: listed, notice_kind: null, notice_reason: null, notice_at: null }
        : {
            status: action === 'suspend' ? 'suspended' : action === 'hide' ? 'hidden' : listed,
            notice_kind: action === 'suspend' ? 'suspended' : action === 'hide' ? 'hidden' : 'flagged',
            notice_reason: reason,
            notice_at: new Date(),
          };
    // Restoring a game hidden for provider_change accepts where it is hosted now: its next check pins that.
    const unpin = action === 'restore' && game.notice_reason === 'provider_change' ? { pinned_provider: null } : {};
    const [updated] = await ArcadeGame.query(trx)
      .where({ app_id: appId })
      .patch({ ...next, ...unpin })
      .returning('*');
    await recordEvent(trx, appId, action === 'restore' ? 'restored' : (next.notice_kind as string), {
      reason,
      ...details,
    });
    if (moderator)
      await recordAction(trx, moderator.id, 'arcade_app_action', { kind: 'arcade_app', id: appId }, { action, reason });
    await notifyDeveloper(trx, game, { target: 'game', decision: action, reason });
    await emailDeveloper(
      trx,
      game,
      `Your Arcade game ${game.slug}: ${action === 'restore' ? 'restored' : next.notice_kind}`,
      action === 'restore'
        ? `Your Arcade game ${game.slug} is back to normal.`
        : `Your Arcade game ${game.slug} is ${next.notice_kind}.${reason ? `\nReason: ${reason}` : ''}`,
    );
    return updated as ArcadeApp;
  };
  return 'isTransaction' in knex && knex.isTransaction
    ? run(knex as Knex.Transaction)
    : (knex as Knex).transaction(run);
}
