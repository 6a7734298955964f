// Changes to the social graph (spec: follow rows of States and transitions, Social routes). Each command
// is one transaction; a block removes the follows in both directions and the requests between the two
// in the same transaction that records it, and the unread notifications either caused the other. The
// notifications a follow, a request and an acceptance send are written in their command's transaction.
import type { Knex } from 'knex';
import type { Account } from '../accounts/account.js';
import { findByUsername } from '../accounts/usernames.js';
import { conflict, invalidRequest, notFound } from '../platform/errors.js';
import { libraryVisibilityOf } from '../people/visibility.js';
import { deliverableSql, notify, removeUnreadBetween } from '../notifications/notify.js';
import { Block, Follow, FollowRequest } from './models.js';

export interface FollowState {
  username: string;
  following: boolean;
  requested: boolean;
}

/** Whether either of the two blocked the other. */
export async function blockedEitherWay(knex: Knex, a: string, b: string): Promise<boolean> {
  const row = await Block.query(knex)
    .select('blocker_id')
    .where({ blocker_id: a, blocked_id: b })
    .orWhere({ blocker_id: b, blocked_id: a })
    .first();
  return row !== undefined;
}

/**
 * The other person of a social command, by current name or a 30-day alias. Someone who blocked the
 * caller does not exist for them (404), like any profile they may not see; oneself is 400.
 */
export async function otherPerson(knex: Knex, caller: Account, username: string): Promise<Account> {
  const other = await findByUsername(knex, username);
  if (!other) throw notFound('No one has this username.');
  if (other.id === caller.id) {
    throw invalidRequest('This is your own account.', { field: 'username', reason: 'not_allowed' });
  }
  const theyBlocked = await Block.query(knex).findById([other.id, caller.id]);
  if (theyBlocked) throw notFound('No one has this username.');
  return other;
}

async function followState(knex: Knex | Knex.Transaction, from: string, to: Account): Promise<FollowState> {
  const [follow, request] = await Promise.all([
    Follow.query(knex).findById([from, to.id]),
    FollowRequest.query(knex).findById([from, to.id]),
  ]);
  return { username: to.username!, following: follow !== undefined, requested: request !== undefined };
}

/** Follows a public account, or asks a private one; repeating changes nothing. */
export async function follow(knex: Knex, caller: Account, target: Account): Promise<FollowState> {
  return knex.transaction(async (trx) => {
    if (await Block.query(trx).findById([caller.id, target.id])) {
      throw conflict('blocked', {}, 'You block this account; unblock it before following.');
    }
    const current = await followState(trx, caller.id, target);
    if (current.following || current.requested) return current;
    // DECISIONS: an account is private when its library visibility is FOLLOWERS or PRIVATE.
    if ((await libraryVisibilityOf(trx, target.id)) === 'PUBLIC') {
      const made = await Follow.query(trx)
        .insert({ follower_id: caller.id, followee_id: target.id })
        .onConflict()
        .ignore()
        .returning('created_at');
      // A follow made by a parallel repeat of this request already told them (nothing came back).
      if (made.created_at !== undefined)
        await notify(trx, { recipientId: target.id, kind: 'follow', actorId: caller.id });
      return { ...current, following: true };
    }
    const asked = await FollowRequest.query(trx)
      .insert({ requester_id: caller.id, target_id: target.id })
      .onConflict()
      .ignore()
      .returning('created_at');
    if (asked.created_at !== undefined)
      await notify(trx, { recipientId: target.id, kind: 'follow_request', actorId: caller.id });
    return { ...current, requested: true };
  });
}

/** Unfollows, or withdraws a request not yet answered. */
export async function unfollow(knex: Knex, caller: Account, target: Account): Promise<FollowState> {
  await knex.transaction(async (trx) => {
    await Follow.query(trx).deleteById([caller.id, target.id]);
    await FollowRequest.query(trx).deleteById([caller.id, target.id]);
  });
  return { username: target.username!, following: false, requested: false };
}

export async function block(knex: Knex, caller: Account, target: Account): Promise<void> {
  await knex.transaction(async (trx) => {
    await Block.query(trx).insert({ blocker_id: caller.id, blocked_id: target.id }).onConflict().ignore();
    for (const [from, to] of [
      [caller.id, target.id],
      [target.id, caller.id],
    ]) {
      await Follow.query(trx).deleteById([from, to]);
      await FollowRequest.query(trx).deleteById([from, to]);
    }
    await removeUnreadBetween(trx, caller.id, target.id);
  });
}

/** Unblocks; what the block removed stays removed. */
export async function unblock(knex: Knex, caller: Account, target: Account): Promise<void> {
  await Block.query(knex).deleteById([caller.id, target.id]);
}

/** Accepts one waiting request: the follow is created and the request leaves the queue; 404 without one. */
export async function acceptRequest(knex: Knex, owner: Account, requester: Account): Promise<void> {
  await knex.transaction(async (trx) => {
    const taken = await FollowRequest.query(trx).deleteById([requester.id, owner.id]);
    if (taken === 0) throw notFound('This account has no follow request waiting.');
    await Follow.query(trx).insert({ follower_id: requester.id, followee_id: owner.id }).onConflict().ignore();
    await notify(trx, { recipientId: requester.id, kind: 'follow_accepted', actorId: owner.id });
  });
}

/** Declines one request; answers whether one was waiting. */
export async function declineRequest(knex: Knex, owner: Account, requester: Account): Promise<boolean> {
  const taken = await FollowRequest.query(knex).deleteById([requester.id, owner.id]);
  return taken > 0;
}

/** Accepts every waiting request in one statement; answers how many. */
export async function acceptAllRequests(knex: Knex, owner: Account): Promise<number> {
  return knex.transaction(async (trx) => {
    const taken = await FollowRequest.query(trx).where({ target_id: owner.id }).delete().returning('requester_id');
    if (taken.length === 0) return 0;
    await Follow.query(trx)
      .insert(taken.map((row) => ({ follower_id: row.requester_id, followee_id: owner.id })))
      .onConflict()
      .ignore();
    // notify() for each requester, in one statement (SQL: one row per requester the owner may still reach).
    await trx.raw(
      `INSERT INTO notifications (account_id, kind, actor_id)
       SELECT r.id, 'follow_accepted', CAST(:owner AS uuid) FROM unnest(CAST(:requesters AS uuid[])) AS r(id)
       WHERE ${deliverableSql('r.id', 'CAST(:owner AS uuid)')}`,
      { owner: owner.id, requesters: taken.map((row) => row.requester_id) },
    );
    return taken.length;
  });
}

export async function declineAllRequests(knex: Knex, owner: Account): Promise<number> {
  return FollowRequest.query(knex).where({ target_id: owner.id }).delete();
}
