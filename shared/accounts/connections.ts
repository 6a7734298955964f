// Sign-in identities and linked connections. Linking happens in the browser (OAuth at the provider);
// the API reads them and forgets a connection.
import type { Knex } from 'knex';
import type { Account } from './account.js';
import { Connection, Identity } from './models.js';

/** The two linkable services: a streaming platform and a game store. */
export const CONNECTION_SERVICES = ['twitch', 'steam'] as const;
export type ConnectionService = (typeof CONNECTION_SERVICES)[number];

export function isConnectionService(value: string): value is ConnectionService {
  return (CONNECTION_SERVICES as readonly string[]).includes(value);
}

export async function listIdentities(knex: Knex, account: Account) {
  const rows = await Identity.query(knex)
    .where({ account_id: account.id })
    .orderBy('created_at')
    .select('provider', 'display_name', 'created_at');
  const email = {
    provider: 'email',
    email: account.email,
    verified: account.email_verified_at !== null,
    password: account.password_hash !== null,
    created_at: account.created_at.toISOString(),
  };
  return [
    email,
    ...rows.map((row) => ({
      provider: row.provider,
      display_name: row.display_name,
      created_at: row.created_at.toISOString(),
    })),
  ];
}

/** Forgets a linked account; answers whether one was linked. */
export async function forgetConnection(knex: Knex, accountId: string, service: ConnectionService): Promise<boolean> {
  return (await Connection.query(knex).where({ account_id: accountId, service }).delete()) > 0;
}
