// The attempt rules of signing in and proving who one is (the limiter itself is the platform's:
// shared/platform/rate-limits/attempt-limiter.ts).
import type { AttemptRule } from '../platform/rate-limits/attempt-limiter.js';

/** DECISIONS: 5 failures per 15 minutes per account and per address. */
export const SIGN_IN_ATTEMPTS: AttemptRule = { name: 'signin', failures: 5, windowSeconds: 15 * 60 };
/** Magic links and other mail a stranger can trigger: 5 per 15 minutes per address and per email. */
export const MAIL_REQUESTS: AttemptRule = { name: 'mail', failures: 5, windowSeconds: 15 * 60 };

/**
 * Sign-ups, each counted whatever its answer (an `email_taken` is a look at who has an account): 10 an
 * hour per address, 3 an hour per email (each success mails a verification link to that address).
 */
export const SIGN_UPS_PER_ADDRESS: AttemptRule = { name: 'signup-ip', failures: 10, windowSeconds: 3600 };
export const SIGN_UPS_PER_EMAIL: AttemptRule = { name: 'signup-email', failures: 3, windowSeconds: 3600 };

/** Spec: 10 attempts at a password or code per 15 minutes per account before deleting data. */
export const DELETION_PROOFS: AttemptRule = { name: 'deletion', failures: 10, windowSeconds: 15 * 60 };

/**
 * Passkey sign-in challenges, which anyone may ask for (each is a row for 5 minutes): 30 per 15 minutes per
 * address, then 429 `too_many_attempts`. The sign-ins themselves count as SIGN_IN_ATTEMPTS.
 */
export const PASSKEY_CHALLENGES: AttemptRule = { name: 'passkey-options', failures: 30, windowSeconds: 15 * 60 };
