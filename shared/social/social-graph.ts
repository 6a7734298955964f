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

export interface FollowState {
  username: string;
  following: boolean;
  requested: boolean;
}

/** Whether either of the two blocked the other. */
export async function blockedEitherWay(knex: Knex, a: string, b: string): Promise<boolean> {
  const row = await knex('blocks')
    .where({ blocker_id: a, blocked_id: b })
    .orWhere({ blocker_id: b, blocked_id: a })
    .first('blocker_id');
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
  const theyBlocked = await knex('blocks').where({ blocker_id: other.id, blocked_id: caller.id }).first('blocker_id');
  if (theyBlocked) throw notFound('No one has this username.');
  return other;
}

async function followState(knex: Knex | Knex.Transaction, from: string, to: Account): Promise<FollowState> {
  const [follow, request] = await Promise.all([
    knex('follows').where({ follower_id: from, followee_id: to.id }).first('follower_id'),
    knex('follow_requests').where({ requester_id: from, target_id: to.id }).first('requester_id'),
  ]);
  return { username: to.username!, following: follow !== undefined, requested: request !== undefined };
}

/** Follows a public account, or asks a private one; repeating changes nothing. */
export async function follow(knex: Knex, caller: Account, target: Account): Promise<FollowState> {
  return knex.transaction(async (trx) => {
    if (await trx('blocks').where({ blocker_id: caller.id, blocked_id: target.id }).first('blocker_id')) {
      throw conflict('blocked', {}, 'You block this account; unblock it before following.');
    }
    const current = await followState(trx, caller.id, target);
    if (current.following || current.requested) return current;
    // DECISIONS: an account is private when its library visibility is FOLLOWERS or PRIVATE.
    if ((await libraryVisibilityOf(trx, target.id)) === 'PUBLIC') {
      const made = await trx('follows')
        .insert({ follower_id: caller.id, followee_id: target.id })
        .onConflict()
        .ignore()
        .returning('follower_id');
      // A follow made by a parallel repeat of this request already told them.
      if (made.length > 0) await notify(trx, { recipientId: target.id, kind: 'follow', actorId: caller.id });
      return { ...current, following: true };
    }
    const asked = await trx('follow_requests')
      .insert({ requester_id: caller.id, target_id: target.id })
      .onConflict()
      .ignore()
      .returning('requester_id');
    if (asked.length > 0) await notify(trx, { recipientId: target.id, kind: 'follow_request', actorId: caller.id });
    return { ...current, requested: true };
  });
}

/** Unfollows, or withdraws a request not yet answered. */
export async function unfollow(knex: Knex, caller: Account, target: Account): Promise<FollowState> {
  await knex.transaction(async (trx) => {
    await trx('follows').where({ follower_id: caller.id, followee_id: target.id }).delete();
    await trx('follow_requests').where({ requester_id: caller.id, target_id: target.id }).delete();
  });
  return { username: target.username!, following: false, requested: false };
}

export async function block(knex: Knex, caller: Account, target: Account): Promise<void> {
  await knex.transaction(async (trx) => {
    await trx('blocks').insert({ blocker_id: caller.id, blocked_id: target.id }).onConflict().ignore();
    for (const [from, to] of [
      [caller.id, target.id],
      [target.id, caller.id],
    ]) {
      await trx('follows').where({ follower_id: from, followee_id: to }).delete();
      await trx('follow_requests').where({ requester_id: from, target_id: to }).delete();
    }
    await removeUnreadBetween(trx, caller.id, target.id);
  });
}

/** Unblocks; what the block removed stays removed. */
export async function unblock(knex: Knex, caller: Account, target: Account): Promise<void> {
  await knex('blocks').where({ blocker_id: caller.id, blocked_id: target.id }).delete();
}

/** Accepts one waiting request: the follow is created and the request leaves the queue; 404 without one. */
export async function acceptRequest(knex: Knex, owner: Account, requester: Account): Promise<void> {
  await knex.transaction(async (trx) => {
    const taken = await trx('follow_requests').where({ requester_id: requester.id, target_id: owner.id }).delete();
    if (taken === 0) throw notFound('This account has no follow request waiting.');
    await trx('follows').insert({ follower_id: requester.id, followee_id: owner.id }).onConflict().ignore();
    await notify(trx, { recipientId: requester.id, kind: 'follow_accepted', actorId: owner.id });
  });
}

/** Declines one request; answers whether one was waiting. */
export async function declineRequest(knex: Knex, owner: Account, requester: Account): Promise<boolean> {
  const taken = await knex('follow_requests').where({ requester_id: requester.id, target_id: owner.id }).delete();
  return taken > 0;
}

/** Accepts every waiting request in one statement; answers how many. */
export async function acceptAllRequests(knex: Knex, owner: Account): Promise<number> {
  return knex.transaction(async (trx) => {
    const taken: Array<{ requester_id: string }> = await trx('follow_requests')
      .where({ target_id: owner.id })
      .delete()
      .returning('requester_id');
    if (taken.length === 0) return 0;
    await trx('follows')
      .insert(taken.map((row) => ({ follower_id: row.requester_id, followee_id: owner.id })))
      .onConflict()
      .ignore();
    // notify() for each requester, in one statement.
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
  return knex('follow_requests').where({ target_id: owner.id }).delete();
}
