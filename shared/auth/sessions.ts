// Session commands. The cookie holds a random token; the database holds its SHA-256 only.
import type { Knex } from 'knex';
import { Account } from '../accounts/account.js';
import { randomToken, sha256 } from '../platform/crypto/tokens.js';
import { queryPrepared } from '../platform/db/prepared.js';
import { Session, type SecondFactor } from './models.js';
import { notFound } from '../platform/errors.js';
import { isUuid } from '../platform/validation/uuid.js';
import { SESSION_IDLE_DAYS, sessionExpired, TOUCH_EVERY_MS } from './session-rules.js';

export interface SessionOrigin {
  userAgent: string | null;
  ip: string | null;
}

export async function startSession(
  trx: Knex | Knex.Transaction,
  account: Account,
  origin: SessionOrigin,
  /** 'passed' for a sign-in that proved two factors at once (a passkey); else what the account owes. */
  proven?: 'passed',
): Promise<{ token: string; session: Session }> {
  const token = randomToken();
  const secondFactor: SecondFactor = proven ?? (account.two_factor_enabled_at ? 'pending' : 'none');
  const session = await Session.query(trx).insertAndFetch({
    account_id: account.id,
    token_hash: sha256(token),
    second_factor: secondFactor,
    user_agent: origin.userAgent?.slice(0, 500) ?? null,
    ip: origin.ip,
  });
  return { token, session };
}

export interface SessionCaller {
  session: Session;
  account: Account;
}

/** The live session a cookie names, or null; an expired one is deleted on sight. */
const SESSION_WITH_ACCOUNT = `
  SELECT to_jsonb(s.*) AS session, to_jsonb(a.*) AS account
  FROM sessions s JOIN accounts a ON a.id = s.account_id
  WHERE s.token_hash = $1`;

/** The live session a cookie names with its account (one query), or null; an expired one is deleted on sight. */
export async function findSession(knex: Knex, token: string): Promise<SessionCaller | null> {
  if (token.length < 20 || token.length > 100) return null;
  const [row] = await queryPrepared(knex, 'jogatina_session', SESSION_WITH_ACCOUNT, [sha256(token)]);
  if (!row) return null;
  const session = Session.fromDatabaseJson(row.session as object);
  if (sessionExpired(session)) {
    await Session.query(knex).deleteById(session.id);
    return null;
  }
  return { session, account: Account.fromDatabaseJson(row.account as object) };
}

/** Records use at most every few minutes, so a busy session does not write on every request. */
export async function touchSession(knex: Knex, session: Session, now = Date.now()): Promise<void> {
  if (now - session.last_seen_at.getTime() < TOUCH_EVERY_MS) return;
  await Session.query(knex)
    .findById(session.id)
    .patch({ last_seen_at: new Date(now) });
}

export async function endSession(knex: Knex | Knex.Transaction, sessionId: string): Promise<void> {
  await Session.query(knex).deleteById(sessionId);
}

/** The account's live sessions, most recently used first (idle past 30 days counts as over). */
export async function listAccountSessions(knex: Knex, accountId: string): Promise<Session[]> {
  return Session.query(knex)
    .where({ account_id: accountId })
    .where('last_seen_at', '>', new Date(Date.now() - SESSION_IDLE_DAYS * 24 * 3600 * 1000))
    .orderBy('last_seen_at', 'desc');
}

/** Ends one of the account's sessions; another account's (or a malformed id) is 404. */
export async function endOwnSession(knex: Knex, accountId: string, sessionId: string): Promise<void> {
  const ended = isUuid(sessionId)
    ? await Session.query(knex).delete().where({ id: sessionId, account_id: accountId })
    : 0;
  if (ended === 0) throw notFound('No session of yours has this id.', 'session_not_found');
}
