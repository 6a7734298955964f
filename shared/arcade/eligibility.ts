// Who may publish on Arcade (spec: Eligibility; DECISIONS: Staff and moderation). Everything is read in
// one statement, then the object and the first refusal are derived from it by pure code, so the route
// that answers `eligibility` and the route that enables Arcade cannot disagree.
import type { Knex } from 'knex';
import type { Account } from '../accounts/account.js';
import type { Session } from '../auth/models.js';
import { verifiedWithTwoFactor } from '../auth/session-rules.js';
import { conflict, forbidden, type ApiError } from '../platform/errors.js';
import { arcadeSettings } from './settings.js';

export interface Eligibility {
  allowlisted: boolean;
  two_factor: boolean;
  mfa_session: boolean;
  email_verified: boolean;
  account_age_days: number;
  adult: boolean;
  terms: { current: string; accepted: string | null };
  banned: boolean;
  open_publishing: boolean;
  blocked: boolean;
  arcade_apps: { used: number; limit: number | null };
  eligible: boolean;
}

interface Facts {
  allowlisted: boolean;
  blocked: boolean;
  banned: boolean;
  accepted: string | null;
  used: number;
  passkey: boolean;
}

const DAY_MS = 24 * 3600 * 1000;

/** Whole years between a 'YYYY-MM-DD' birth date and `now` (UTC), or null without one. */
function ageInYears(birthDate: string | null, now: Date): number | null {
  if (!birthDate) return null;
  const [y, m, d] = birthDate.split('-').map(Number);
  let years = now.getUTCFullYear() - y;
  if (now.getUTCMonth() + 1 < m || (now.getUTCMonth() + 1 === m && now.getUTCDate() < d)) years -= 1;
  return years;
}

async function factsOf(knex: Knex | Knex.Transaction, accountId: string): Promise<Facts> {
  const { rows } = await knex.raw<{ rows: Facts[] }>(
    `SELECT
       EXISTS (SELECT 1 FROM arcade_allowlist WHERE account_id = :a) AS allowlisted,
       EXISTS (SELECT 1 FROM publisher_blocks WHERE account_id = :a) AS blocked,
       EXISTS (SELECT 1 FROM infractions WHERE account_id = :a
               AND reason IN ('Suspensão', 'Banimento permanente') AND (expires_at IS NULL OR expires_at > now())) AS banned,
       (SELECT version FROM arcade_terms_acceptances WHERE account_id = :a
         ORDER BY accepted_at DESC, id DESC LIMIT 1) AS accepted,
       (SELECT count(*) FROM arcade_apps WHERE account_id = :a AND status <> 'removed')::int AS used,
       EXISTS (SELECT 1 FROM passkeys WHERE account_id = :a) AS passkey`,
    { a: accountId },
  );
  return rows[0];
}

export async function eligibilityOf(
  knex: Knex | Knex.Transaction,
  account: Account,
  session: Session,
  minAccountAgeDays: number,
  now = new Date(),
): Promise<Eligibility> {
  const [facts, settings] = await Promise.all([factsOf(knex, account.id), arcadeSettings(knex)]);
  const ageDays = Math.floor((now.getTime() - new Date(account.created_at).getTime()) / DAY_MS);
  const years = ageInYears(account.birth_date, now);
  const eligibility: Eligibility = {
    allowlisted: facts.allowlisted,
    // A passkey is a second factor in itself (DECISIONS: Passkeys), as an authenticator app is.
    two_factor: account.two_factor_enabled_at !== null || facts.passkey,
    mfa_session: verifiedWithTwoFactor(session),
    email_verified: account.email_verified_at !== null,
    account_age_days: Math.max(0, ageDays),
    adult: years !== null && years >= 18,
    terms: { current: settings.terms_version, accepted: facts.accepted },
    banned: facts.banned,
    open_publishing: settings.open_publishing,
    blocked: facts.blocked,
    // An invited account has no limit (DECISIONS).
    arcade_apps: { used: facts.used, limit: facts.allowlisted ? null : settings.app_limit },
    eligible: false,
  };
  // The terms are accepted by the request that enables Arcade, so they do not count against `eligible`;
  // `terms` tells on its own whether the account's acceptance is current.
  eligibility.eligible = firstRefusal(eligibility, minAccountAgeDays, settings.terms_version) === null;
  return eligibility;
}

/**
 * The first thing standing in the way, in the spec's order of 403 reasons, then the app limit; null when
 * nothing does. `offeredTerms`: the version the request accepts (enabling sends one), else the account's.
 */
export function firstRefusal(e: Eligibility, minAccountAgeDays: number, offeredTerms: string | null): ApiError | null {
  if (!e.allowlisted && !e.open_publishing) {
    return forbidden('not_allowlisted', {}, 'Arcade publishing is by invitation for now.');
  }
  if (!e.two_factor) return forbidden('two_factor_required', {}, 'Turn on two-factor sign-in first.');
  if (!e.mfa_session) return forbidden('mfa_required');
  if (!e.email_verified) return forbidden('email_unverified', {}, 'Verify your email address first.');
  if (!e.allowlisted && e.account_age_days < minAccountAgeDays) {
    return forbidden('account_too_new', {}, `The account must be at least ${minAccountAgeDays} days old.`);
  }
  if (!e.adult) return forbidden('adult_required', {}, 'Publishing needs a confirmed age of 18 or more.');
  if (offeredTerms !== e.terms.current) {
    return forbidden(
      'terms_required',
      { field: 'terms_version' },
      `Accept the current developer terms (${e.terms.current}).`,
    );
  }
  if (e.banned) return forbidden('banned', {}, 'This account is suspended.');
  if (e.blocked) return forbidden('publisher_blocked', {}, 'Moderation has blocked this account from publishing.');
  if (e.arcade_apps.limit !== null && e.arcade_apps.used >= e.arcade_apps.limit) {
    return conflict(
      'arcade_app_limit',
      { limit: e.arcade_apps.limit, count: e.arcade_apps.used },
      `An account holds at most ${e.arcade_apps.limit} Arcade games.`,
    );
  }
  return null;
}
