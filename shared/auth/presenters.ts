// The sign-in service's answers (DECISIONS: `GET /api/auth/session`).
import type { Account } from '../accounts/account.js';
import type { Passkey, Session } from './models.js';

export function presentSessionAccount(account: Account) {
  return {
    id: account.id,
    email: account.email,
    username: account.username,
    has_password: account.password_hash !== null,
    two_factor: account.two_factor_enabled_at !== null,
  };
}

export function presentSessionSummary(session: Session) {
  return { id: session.id, created_at: session.created_at.toISOString(), second_factor: session.second_factor };
}

/** A row of `GET /account/sessions`: where the account is signed in, and on what. */
export function presentSessionListItem(session: Session, currentId: string | null) {
  return {
    id: session.id,
    created_at: session.created_at.toISOString(),
    last_seen_at: session.last_seen_at.toISOString(),
    signed_in_at: session.signed_in_at.toISOString(),
    second_factor: session.second_factor,
    user_agent: session.user_agent,
    ip: session.ip,
    current: session.id === currentId,
  };
}

/** A passkey as its owner sees it: never its key or credential id. */
export function presentPasskey(passkey: Passkey) {
  return {
    id: passkey.id,
    name: passkey.name,
    created_at: passkey.created_at.toISOString(),
    last_used_at: passkey.last_used_at?.toISOString() ?? null,
    backed_up: passkey.backed_up,
  };
}
