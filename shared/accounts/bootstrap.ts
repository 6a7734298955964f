// `POST /account/bootstrap`: makes an account ready after sign-in (its profile row with the defaults),
// and with `adopt_twitch=true` turns the account's Twitch sign-in identity into its linked Twitch
// connection. Safe to repeat: a second call changes nothing.
import type { Knex } from 'knex';
import { notFound } from '../platform/errors.js';
import { Connection, Identity } from './models.js';

export interface BootstrapResult {
  profile_created: boolean;
  adopted: string[];
}

export async function bootstrapAccount(
  knex: Knex,
  accountId: string,
  options: { adoptTwitch: boolean },
): Promise<BootstrapResult> {
  return knex.transaction(async (trx) => {
    // By its table: the profile's model (profiles/models.ts) sits above accounts in the folder graph.
    const created = await trx('profiles')
      .insert({ account_id: accountId })
      .onConflict('account_id')
      .ignore()
      .returning('account_id');
    const adopted: string[] = [];
    if (options.adoptTwitch) {
      const identity = await Identity.query(trx)
        .where({ account_id: accountId, provider: 'twitch' })
        .orderBy('created_at')
        .first();
      if (!identity) throw notFound('This account has no Twitch sign-in to adopt.', 'identity_not_found');
      await Connection.query(trx)
        .insert({
          account_id: accountId,
          service: 'twitch',
          external_id: identity.provider_account_id,
          display_name: identity.display_name,
        })
        .onConflict(['account_id', 'service'])
        .ignore();
      adopted.push('twitch');
    }
    return { profile_created: created.length > 0, adopted };
  });
}
