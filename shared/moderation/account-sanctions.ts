// What moderators do to an account (DECISIONS: POST /moderation/accounts/{id}/infractions and
// /publisher): each change and its record in moderator_actions share one transaction. Infractions are
// the table GET /account/state reads, so the account sees them there at once, and each is also the
// account's `infraction` notification, from nobody (the moderator is never named to the account).
import type { Knex } from 'knex';
import { Account } from '../accounts/account.js';
import { invalidRequest, notFound } from '../platform/errors.js';
import { isUuid } from '../platform/validation/uuid.js';
import { notify } from '../notifications/notify.js';
import type { InfractionInput } from './infraction-rules.js';
import { recordAction } from './moderator-actions.js';
import { Infraction, PublisherBlock } from './models.js';

/** The account a moderation route names by id; a malformed or unknown id is 404, oneself 400. */
async function subjectAccount(trx: Knex.Transaction, moderator: Account, accountId: string): Promise<string> {
  const missing = () => notFound('There is no account with this id.');
  if (!isUuid(accountId)) throw missing();
  const row = await Account.query(trx).findById(accountId).select('id');
  if (!row) throw missing();
  // Nobody moderates themselves: another moderator decides.
  if (row.id === moderator.id) {
    throw invalidRequest('Moderators do not act on their own account.', { field: 'id', reason: 'not_allowed' });
  }
  return row.id;
}

export async function addInfraction(knex: Knex, moderator: Account, accountId: string, input: InfractionInput) {
  return knex.transaction(async (trx) => {
    const id = await subjectAccount(trx, moderator, accountId);
    const row = await Infraction.query(trx)
      .insert({
        account_id: id,
        reason: input.reason,
        details: input.details ?? null,
        expires_at: input.expires_at ? new Date(input.expires_at) : null,
        created_by: moderator.id,
      })
      .returning(['id', 'reason', 'details', 'expires_at', 'created_at']);
    await recordAction(
      trx,
      moderator.id,
      'add_infraction',
      { kind: 'account', id },
      { infraction_id: row.id, reason: row.reason, details: row.details, expires_at: row.expires_at },
    );
    const expiresAt = row.expires_at ? new Date(row.expires_at).toISOString() : null;
    await notify(trx, {
      recipientId: id,
      kind: 'infraction',
      actorId: null,
      data: { infraction_id: row.id, reason: row.reason, expires_at: expiresAt },
    });
    return {
      id: row.id,
      account_id: id,
      reason: row.reason,
      details: row.details,
      expires_at: expiresAt,
      created_at: new Date(row.created_at).toISOString(),
    };
  });
}

/** Blocks or unblocks the account from publishing on Arcade; repeating changes nothing but is recorded. */
export async function setPublisherBlock(knex: Knex, moderator: Account, accountId: string, blocked: boolean) {
  return knex.transaction(async (trx) => {
    const id = await subjectAccount(trx, moderator, accountId);
    if (blocked) {
      await PublisherBlock.query(trx).insert({ account_id: id, blocked_by: moderator.id }).onConflict().ignore();
    } else {
      await PublisherBlock.query(trx).deleteById(id);
    }
    await recordAction(
      trx,
      moderator.id,
      blocked ? 'block_publisher' : 'unblock_publisher',
      { kind: 'account', id },
      {},
    );
    const row = await PublisherBlock.query(trx).findById(id).select('created_at');
    return { account_id: id, blocked, blocked_at: row ? new Date(row.created_at).toISOString() : null };
  });
}

/** For Arcade publishing, once it exists: whether moderation blocked this account from publishing. */
export async function publisherBlocked(knex: Knex, accountId: string): Promise<boolean> {
  return (await PublisherBlock.query(knex).findById(accountId).select('account_id')) !== undefined;
}
