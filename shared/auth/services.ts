// What the sign-in service's commands need from the process, built once at start.
import type { Knex } from 'knex';
import {
  DELETION_PROOFS,
  MAIL_REQUESTS,
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
  };
}
