// The account's passkeys (DECISIONS: Passkeys): registering one (options, then the authenticator's answer),
// listing, renaming and deleting. Registering follows rule 11 of Authentication like two-factor does; the
// route refuses a session that owes its second factor. Deleting one never locks anyone out: the e-mail
// link is always a way in.
import { generateRegistrationOptions, verifyRegistrationResponse } from '@simplewebauthn/server';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Knex } from 'knex';
import { conflict, invalidRequest, notFound } from '../platform/errors.js';
import { isUuid } from '../platform/validation/uuid.js';
import { Account } from '../accounts/account.js';
import { Passkey } from './models.js';
import {
  CHALLENGE_TTL_MS,
  expectedOf,
  keepChallenge,
  optionsAnswer,
  takeAnsweredChallenge,
} from './passkey-challenges.js';
import { requireRecentIfPasswordless, type CallerSession } from './second-factor.js';
import type { AuthServices } from './services.js';

export const PASSKEYS_PER_ACCOUNT = 10;
export const PASSKEY_NAME_MAX = 60;
const DEFAULT_NAME = 'Passkey';

/** The WebAuthn user handle of an account: its id's 16 bytes, never its e-mail. */
export function userHandleOf(accountId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(accountId.replace(/-/g, ''), 'hex'));
}

const passkeyNotFound = () => notFound('You have no passkey with this id.', 'passkey_not_found');
const passkeysFull = () =>
  conflict('passkeys_full', {}, `An account keeps at most ${PASSKEYS_PER_ACCOUNT} passkeys; delete one first.`);
const passkeyInvalid = (why: string) =>
  invalidRequest(`The passkey could not be verified: ${why}`, { reason: 'passkey_invalid' });

async function countPasskeys(knex: Knex | Knex.Transaction, accountId: string): Promise<number> {
  return Passkey.query(knex).where({ account_id: accountId }).resultSize();
}

/** The account's passkeys, newest first. */
export async function listPasskeys(knex: Knex, accountId: string): Promise<Passkey[]> {
  return Passkey.query(knex)
    .where({ account_id: accountId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
}

/** Step one: the options `startRegistration` takes, with a challenge kept for 5 minutes. */
export async function registrationOptions(services: AuthServices, caller: CallerSession) {
  requireRecentIfPasswordless(caller);
  const { account } = caller;
  const existing = await listPasskeys(services.knex, account.id);
  if (existing.length >= PASSKEYS_PER_ACCOUNT) throw passkeysFull();
  const options = await generateRegistrationOptions({
    rpName: services.relyingParty.name,
    rpID: services.relyingParty.id,
    userID: userHandleOf(account.id),
    userName: account.email,
    userDisplayName: account.username ?? account.email,
    timeout: CHALLENGE_TTL_MS,
    attestationType: 'none',
    // The same authenticator twice would be one key under two names.
    excludeCredentials: existing.map((passkey) => ({ id: passkey.credential_id, transports: passkey.transports })),
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
  });
  await keepChallenge(services.knex, options.challenge, 'register', account.id);
  return optionsAnswer(options);
}

/**
 * Step two: the authenticator's answer to a challenge this account was given. Anything that does not
 * verify (another origin or relying party, a used or expired challenge, no user verification) is 400
 * `passkey_invalid` and adds nothing.
 */
export async function registerPasskey(
  services: AuthServices,
  caller: CallerSession,
  response: RegistrationResponseJSON,
  name: string | undefined,
): Promise<Passkey> {
  requireRecentIfPasswordless(caller);
  const { account } = caller;
  const challenge = await takeAnsweredChallenge(services.knex, response, 'register', account.id);
  if (!challenge) throw passkeyInvalid('its challenge was not given to this account, was used, or expired.');
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({ response, ...expectedOf(services, challenge) });
  } catch (error) {
    throw passkeyInvalid((error as Error).message);
  }
  if (!verified.verified) throw passkeyInvalid('the authenticator’s answer did not verify.');
  const { credential, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
  return services.knex.transaction(async (trx) => {
    // The account row is the lock that makes the limit hold for registrations finishing at once.
    await Account.query(trx).select('id').findById(account.id).forUpdate();
    if ((await countPasskeys(trx, account.id)) >= PASSKEYS_PER_ACCOUNT) throw passkeysFull();
    const row = await Passkey.query(trx)
      .insert({
        account_id: account.id,
        credential_id: credential.id,
        public_key: Buffer.from(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports ?? response.response.transports ?? [],
        device_type: credentialDeviceType,
        backed_up: credentialBackedUp,
        name: name ?? DEFAULT_NAME,
      })
      .onConflict('credential_id')
      .ignore()
      .returning('*');
    // Nothing returned: the conflict was ignored.
    if (!row.id) throw passkeyInvalid('this authenticator’s credential is already registered.');
    return row;
  });
}

export async function renamePasskey(knex: Knex, accountId: string, id: string, name: string): Promise<Passkey> {
  if (!isUuid(id)) throw passkeyNotFound();
  const [row] = await Passkey.query(knex).where({ id, account_id: accountId }).patch({ name }).returning('*');
  if (!row) throw passkeyNotFound();
  return row;
}

/** Deletes one of the account's passkeys (rule 11 for passwordless accounts, as registering). */
export async function deletePasskey(services: AuthServices, caller: CallerSession, id: string): Promise<void> {
  requireRecentIfPasswordless(caller);
  const deleted = isUuid(id)
    ? await Passkey.query(services.knex).where({ id, account_id: caller.account.id }).delete()
    : 0;
  if (deleted === 0) throw passkeyNotFound();
}
