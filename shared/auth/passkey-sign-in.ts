// Usernameless sign-in with a passkey (DECISIONS: Passkeys): anyone may ask for a challenge (30 per 15
// minutes per address); the authenticator's answer names its credential, which names the account. A
// sign-in that does not verify is the same 401 `invalid_credentials` as a wrong password, and counts as a
// failed attempt against the address and the account (the account's e-mail subject, which password
// sign-in counts too). A passkey is something one has and, verified by the authenticator, something one is
// or knows: its session has passed its second factor.
import { generateAuthenticationOptions, verifyAuthenticationResponse } from '@simplewebauthn/server';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { Knex } from 'knex';
import { fn } from 'objection';
import { type Account } from '../accounts/account.js';
import { unauthorized } from '../platform/errors.js';
import { Passkey } from './models.js';
import {
  CHALLENGE_TTL_MS,
  expectedOf,
  keepChallenge,
  optionsAnswer,
  takeAnsweredChallenge,
} from './passkey-challenges.js';
import { userHandleOf } from './passkeys.js';
import type { AuthServices } from './services.js';
import { startSession, type SessionOrigin } from './sessions.js';
import type { SignedIn } from './sign-in.js';

/** Step one: the options `startAuthentication` takes; no credentials listed, the authenticator offers its own. */
export async function signInOptions(services: AuthServices, ip: string | null) {
  await services.passkeyChallenges.spend([`ip:${ip ?? 'unknown'}`]);
  const options = await generateAuthenticationOptions({
    rpID: services.relyingParty.id,
    userVerification: 'required',
    timeout: CHALLENGE_TTL_MS,
  });
  await keepChallenge(services.knex, options.challenge, 'sign_in', null);
  return optionsAnswer(options);
}

/** The stored passkey an answer names, with its account (one statement); null for a credential nobody registered. */
async function passkeyOf(knex: Knex, credentialId: string): Promise<{ passkey: Passkey; account: Account } | null> {
  const passkey = await Passkey.query(knex)
    .withGraphJoined('account')
    .where('passkeys.credential_id', credentialId)
    .first();
  if (!passkey?.account) return null;
  return { passkey, account: passkey.account };
}

/**
 * Verifies the answer against its challenge (taken, so a replay finds nothing), the site's origin and RP
 * id, the stored key, user verification and the counter; then moves the counter on, in a statement that
 * holds only when no one moved it further meanwhile.
 */
async function verifies(
  services: AuthServices,
  response: AuthenticationResponseJSON,
  found: { passkey: Passkey; account: Account } | null,
): Promise<boolean> {
  const challenge = await takeAnsweredChallenge(services.knex, response, 'sign_in', null);
  if (!challenge) return false;
  if (!found) return false;
  const { passkey, account } = found;
  const handle = response.response.userHandle;
  if (handle && handle !== isoBase64URL.fromBuffer(userHandleOf(account.id))) return false;
  let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      ...expectedOf(services, challenge),
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(passkey.public_key),
        counter: Number(passkey.counter),
        transports: passkey.transports as never,
      },
    });
  } catch {
    return false;
  }
  if (!verification.verified) return false;
  const { newCounter, credentialBackedUp } = verification.authenticationInfo;
  const moved = await Passkey.query(services.knex)
    .where({ id: passkey.id })
    // An authenticator without a counter reports 0 every time; one with a counter must go forward.
    .where((q) => {
      q.where('counter', '<', newCounter);
      if (newCounter === 0) q.orWhere('counter', 0);
    })
    .patch({ counter: newCounter, last_used_at: fn.now(), backed_up: credentialBackedUp });
  return moved === 1;
}

export async function signInWithPasskey(
  services: AuthServices,
  response: AuthenticationResponseJSON,
  origin: SessionOrigin,
): Promise<SignedIn> {
  const found = await passkeyOf(services.knex, response.id);
  const subjects = [`ip:${origin.ip ?? 'unknown'}`];
  if (found) subjects.push(`email:${found.account.email.toLowerCase()}`);
  const ok = await services.signInAttempts.guess(subjects, () => verifies(services, response, found));
  if (!ok || !found) throw unauthorized('This passkey could not sign you in.', 'invalid_credentials');
  const { token, session } = await startSession(services.knex, found.account, origin, 'passed');
  return { account: found.account, session, token };
}
