// A software WebAuthn authenticator for tests of the server's side of passkeys: it answers the options the
// server hands out with real P-256 keys, real authenticator data and real signatures, as a security key or a
// phone would ("none" attestation, a discoverable credential), and each answer can be bent in one way (another
// origin, another relying party, no user verification, a counter of its choosing, another challenge) to see
// the server refuse exactly that. The browser's own authenticator is tested in auth-passkeys-browser.test.ts.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_BACKUP_ELIGIBLE = 0x08;
const FLAG_BACKED_UP = 0x10;
const FLAG_ATTESTED_CREDENTIAL = 0x40;

export interface Bend {
  /** The origin the client data names (default: the authenticator's). */
  origin?: string;
  /** The relying party whose hash the authenticator data carries (default: the options'). */
  rpId?: string;
  /** Whether the user was verified (default true). */
  userVerified?: boolean;
  /** The challenge signed (default: the options'). */
  challenge?: string;
  /** The signature counter reported (default: one more than the last). */
  counter?: number;
  /**
   * The credential used: to sign in (default: the first this authenticator holds for the RP), or, to
   * register, one it holds already, offered again (default: a new one).
   */
  credentialId?: string;
  /** The user handle sent (default: the one registered with the credential). */
  userHandle?: string | null;
}

interface Credential {
  id: string;
  rpId: string;
  privateKey: KeyObject;
  coseKey: Uint8Array;
  userHandle: string;
  counter: number;
}

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const b64url = (bytes: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(bytes));

function coseOf(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: 'jwk' });
  const key = new Map<number, number | Uint8Array>([
    [1, 2], // kty: EC2
    [3, -7], // alg: ES256
    [-1, 1], // crv: P-256
    [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
    [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
  ]);
  return isoCBOR.encode(key);
}

function flags(userVerified: boolean, attested: boolean): number {
  let value = FLAG_USER_PRESENT | FLAG_BACKUP_ELIGIBLE | FLAG_BACKED_UP;
  if (userVerified) value |= FLAG_USER_VERIFIED;
  if (attested) value |= FLAG_ATTESTED_CREDENTIAL;
  return value;
}

function authenticatorData(rpId: string, flagByte: number, counter: number, attested?: Buffer): Buffer {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(counter);
  return Buffer.concat([sha256(rpId), Buffer.from([flagByte]), count, ...(attested ? [attested] : [])]);
}

function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];

  constructor(readonly origin: string) {}

  /** Answers registration options as `startRegistration` would, keeping the new credential. */
  register(options: PublicKeyCredentialCreationOptionsJSON, bend: Bend = {}): RegistrationResponseJSON {
    const rpId = bend.rpId ?? options.rp.id!;
    const held = bend.credentialId ? this.credentials.find((c) => c.id === bend.credentialId) : undefined;
    if (bend.credentialId && !held) throw new Error('this authenticator holds no such credential');
    const { privateKey, publicKey } = held
      ? { privateKey: held.privateKey, publicKey: null }
      : generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const id = held ? Buffer.from(held.id, 'base64url') : randomBytes(32);
    const coseKey = held ? held.coseKey : coseOf(publicKey!);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, id, Buffer.from(coseKey)]);
    const data = authenticatorData(rpId, flags(bend.userVerified ?? true, true), 0, attested);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(data)],
      ]),
    );
    const credential = held ?? { id: b64url(id), rpId, privateKey, coseKey, userHandle: options.user.id, counter: 0 };
    if (!held) this.credentials.push(credential);
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(
          clientData('webauthn.create', bend.challenge ?? options.challenge, bend.origin ?? this.origin),
        ),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** Answers sign-in options as `startAuthentication` would, with a passkey it holds. */
  authenticate(options: PublicKeyCredentialRequestOptionsJSON, bend: Bend = {}): AuthenticationResponseJSON {
    const credential = bend.credentialId
      ? this.credentials.find((held) => held.id === bend.credentialId)
      : this.credentials.find((held) => held.rpId === options.rpId);
    if (!credential) throw new Error('this authenticator holds no passkey for that');
    credential.counter = bend.counter ?? credential.counter + 1;
    const rpId = bend.rpId ?? options.rpId!;
    const data = authenticatorData(rpId, flags(bend.userVerified ?? true, false), credential.counter);
    const client = clientData('webauthn.get', bend.challenge ?? options.challenge, bend.origin ?? this.origin);
    const signature = sign('sha256', Buffer.concat([data, sha256(client)]), credential.privateKey);
    const userHandle = bend.userHandle === undefined ? credential.userHandle : bend.userHandle;
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(client),
        authenticatorData: b64url(data),
        signature: b64url(signature),
        ...(userHandle === null ? {} : { userHandle }),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
