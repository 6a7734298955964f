// What the sign-in service's commands need from the process, built once at start.
import type { Knex } from 'knex';
import {
  DELETION_PROOFS,
  MAIL_REQUESTS,
  PASSKEY_CHALLENGES,
  SIGN_IN_ATTEMPTS,
  SIGN_UPS_PER_ADDRESS,
  SIGN_UPS_PER_EMAIL,
} from './attempts.js';
import { AttemptLimiter } from '../platform/rate-limits/attempt-limiter.js';

export interface AuthServices {
  knex: Knex;
  secret: string;
  publicUrl: string;
  signInAttempts: AttemptLimiter;
  mailRequests: AttemptLimiter;
  deletionProofs: AttemptLimiter;
  signUpsPerAddress: AttemptLimiter;
  signUpsPerEmail: AttemptLimiter;
  passkeyChallenges: AttemptLimiter;
  /** Who passkeys are made for: the site's origin, and its host name without the port as the RP id. */
  relyingParty: { id: string; origin: string; name: string };
}

export function createAuthServices(knex: Knex, secret: string, publicUrl: string): AuthServices {
  return {
    knex,
    secret,
    publicUrl,
    signInAttempts: new AttemptLimiter(knex, SIGN_IN_ATTEMPTS),
    mailRequests: new AttemptLimiter(knex, MAIL_REQUESTS),
    deletionProofs: new AttemptLimiter(knex, DELETION_PROOFS),
    signUpsPerAddress: new AttemptLimiter(knex, SIGN_UPS_PER_ADDRESS),
    signUpsPerEmail: new AttemptLimiter(knex, SIGN_UPS_PER_EMAIL),
    passkeyChallenges: new AttemptLimiter(knex, PASSKEY_CHALLENGES),
    relyingParty: { id: new URL(publicUrl).hostname, origin: new URL(publicUrl).origin, name: 'Jogatina' },
  };
}
