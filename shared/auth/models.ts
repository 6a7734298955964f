// Rows of the sign-in service: sessions, one-time tokens and recovery codes.
import type { RelationMappings } from 'objection';
import { Account } from '../accounts/account.js';
import { BaseModel, belongsToOne } from '../platform/db/base-model.js';

export type SecondFactor = 'none' | 'pending' | 'passed';

export class Session extends BaseModel {
  static override tableName = 'sessions';

  declare id: string;
  declare account_id: string;
  declare token_hash: string;
  declare created_at: Date;
  declare last_seen_at: Date;
  declare signed_in_at: Date;
  declare second_factor: SecondFactor;
  declare user_agent: string | null;
  declare ip: string | null;
}

export type TokenPurpose = 'magic_link' | 'verify_email';

export class AuthToken extends BaseModel {
  static override tableName = 'auth_tokens';

  declare id: string;
  declare purpose: TokenPurpose;
  declare token_hash: string;
  declare email: string;
  declare account_id: string | null;
  declare expires_at: Date;
  declare used_at: Date | null;
  declare created_at: Date;
}

export class RecoveryCode extends BaseModel {
  static override tableName = 'recovery_codes';

  declare id: string;
  declare account_id: string;
  declare code_hash: string;
  declare used_at: Date | null;
  declare created_at: Date;
}

/** A WebAuthn credential the account signs in with (DECISIONS: Passkeys). */
export class Passkey extends BaseModel {
  static override tableName = 'passkeys';

  declare id: string;
  declare account_id: string;
  declare credential_id: string;
  declare public_key: Buffer;
  declare counter: string | number;
  declare transports: string[];
  declare device_type: string;
  declare backed_up: boolean;
  declare name: string;
  declare created_at: Date;
  declare last_used_at: Date | null;
  /** Read with it when signing in (withGraphJoined). */
  declare account?: Account;

  static override get relationMappings(): RelationMappings {
    return {
      account: belongsToOne(Account, 'passkeys.account_id', 'accounts.id'),
    };
  }
}

/** A passkey ceremony's challenge, taken once (passkey-challenges.ts). */
export class PasskeyChallenge extends BaseModel {
  static override tableName = 'passkey_challenges';
  static override idColumn = 'challenge';

  declare challenge: string;
  declare purpose: 'register' | 'sign_in';
  declare account_id: string | null;
  declare expires_at: Date;
}
