// What the sign-in service's commands need from the process, built once at start.
import type { Knex } from 'knex';
import { AttemptLimiter, DELETION_PROOFS, MAIL_REQUESTS, SIGN_IN_ATTEMPTS } from './attempts.js';

export interface AuthServices {
  knex: Knex;
  secret: string;
  publicUrl: string;
  signInAttempts: AttemptLimiter;
  mailRequests: AttemptLimiter;
  deletionProofs: AttemptLimiter;
}

export function createAuthServices(knex: Knex, secret: string, publicUrl: string): AuthServices {
  return {
    knex,
    secret,
    publicUrl,
    signInAttempts: new AttemptLimiter(knex, SIGN_IN_ATTEMPTS),
    mailRequests: new AttemptLimiter(knex, MAIL_REQUESTS),
    deletionProofs: new AttemptLimiter(knex, DELETION_PROOFS),
  };
}
