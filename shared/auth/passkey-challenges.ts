// The challenges of passkey ceremonies (DECISIONS: Passkeys): handed out by the options routes, valid 5
// minutes, taken once. The second request of a ceremony carries its challenge inside the client data the
// authenticator signed, so the challenge is found by its own value and deleted as it is read: a replayed
// response finds nothing, and two parallel uses of one challenge cannot both take it.
import type { Knex } from 'knex';
import { decodeClientDataJSON } from '@simplewebauthn/server/helpers';
import { PasskeyChallenge } from './models.js';
import type { AuthServices } from './services.js';

export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

export type ChallengePurpose = 'register' | 'sign_in';

/** Keeps a challenge for 5 minutes; expired ones are swept as new ones come, so the table stays small. */
export async function keepChallenge(
  knex: Knex,
  challenge: string,
  purpose: ChallengePurpose,
  accountId: string | null,
): Promise<void> {
  await PasskeyChallenge.query(knex).where('expires_at', '<', knex.fn.now()).delete();
  await PasskeyChallenge.query(knex).insert({
    challenge,
    purpose,
    account_id: accountId,
    expires_at: new Date(Date.now() + CHALLENGE_TTL_MS),
  });
}

/** The challenge a WebAuthn response signed (its client data's), or null when the response has none. */
function challengeOf(response: { response?: { clientDataJSON?: unknown } }): string | null {
  const encoded = response.response?.clientDataJSON;
  if (typeof encoded !== 'string') return null;
  try {
    const { challenge } = decodeClientDataJSON(encoded);
    return typeof challenge === 'string' && challenge.length > 0 ? challenge : null;
  } catch {
    return null;
  }
}

/**
 * Takes the challenge a response signed, for this purpose (and account, for a registration): the
 * challenge when it was handed out, unused and unexpired, else null. Taken either way, so it never
 * answers twice.
 */
export async function takeAnsweredChallenge(
  knex: Knex,
  response: { response?: { clientDataJSON?: unknown } },
  purpose: ChallengePurpose,
  accountId: string | null,
): Promise<string | null> {
  const challenge = challengeOf(response);
  if (!challenge) return null;
  const [taken] = await PasskeyChallenge.query(knex)
    .where({ challenge, purpose })
    .where((q) => (accountId ? q.where({ account_id: accountId }) : q.whereNull('account_id')))
    .delete()
    .returning('expires_at');
  return taken !== undefined && new Date(taken.expires_at).getTime() > Date.now() ? challenge : null;
}

/** The library's options as the browser takes them: members it left undefined are not members. */
export function optionsAnswer<T extends object>(options: T): T {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as T;
}

/** What every answer is verified against: its challenge, the site's origin and RP id, a verified user. */
export function expectedOf(services: AuthServices, challenge: string) {
  return {
    expectedChallenge: challenge,
    expectedOrigin: services.relyingParty.origin,
    expectedRPID: services.relyingParty.id,
    requireUserVerification: true,
  };
}
