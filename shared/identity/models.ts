// The identity key set's keys (signing-keys.ts): states next, current, retiring; private halves sealed.
import type { JWK } from 'jose';
import { BaseModel } from '../platform/db/base-model.js';

export class SigningKey extends BaseModel {
  static override tableName = 'signing_keys';
  static override idColumn = 'kid';
  static override jsonAttributes = ['public_jwk'];

  declare kid: string;
  declare state: 'next' | 'current' | 'retiring';
  declare public_jwk: JWK;
  /** The private JWK, sealed with SECRET. */
  declare private_sealed: string;
  declare created_at: Date;
  declare promoted_at: Date | null;
  declare retired_at: Date | null;
}
