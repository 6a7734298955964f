// Arcade games: enabling Arcade on an app, the developer terms, and the timeline. A game is the
// `arcade_apps` row of an app; its slug is claimed for good in `arcade_claims` in the same transaction.
import type { Knex } from 'knex';
import type { Account } from '../accounts/account.js';
import type { Session } from '../auth/models.js';
import { registerConstraint } from '../platform/db/database-errors.js';
import { conflict, forbidden, notFound } from '../platform/errors.js';
import { findOwnApp } from '../keys/apps.js';
import { firstRefusal, eligibilityOf } from './eligibility.js';
import { arcadeSettings, type ArcadeSettings } from './settings.js';
import { limiterFor } from '../platform/rate-limits/attempt-limiter.js';
import type { ArcadeApp } from './rows.js';
import { ArcadeClaim, ArcadeEvent, ArcadeGame, ArcadeTermsAcceptance, StoreSettings } from './models.js';

registerConstraint('arcade_claims_pkey', () => conflict('slug_taken', {}, 'This slug is taken, now or before.'));
registerConstraint('arcade_apps_slug_unique', () => conflict('slug_taken', {}, 'This slug is taken, now or before.'));
registerConstraint('arcade_apps_pkey', () => conflict('already_enabled', {}, 'Arcade is already enabled on this app.'));

/** Spec Limits: enabling Arcade 5 per account per day; accepting terms again 10 per account per day. */
const ENABLES = { name: 'arcade-enable', failures: 5, windowSeconds: 24 * 3600, reason: 'rate_limited' };
const TERMS = { name: 'arcade-terms', failures: 10, windowSeconds: 24 * 3600, reason: 'rate_limited' };

export function gameNotFound() {
  return notFound('This app has no Arcade game.', 'app_not_found');
}

export async function gameOf(knex: Knex | Knex.Transaction, appId: string): Promise<ArcadeApp | null> {
  return (await ArcadeGame.query(knex).findById(appId)) ?? null;
}

/** A removed game is permanent (DECISIONS: Fine print): no developer move changes it any more. */
export function appRemoved() {
  return conflict('app_removed', {}, 'This game is removed from Arcade for good: nothing about it can change.');
}

/**
 * The game's row, locked for the transaction, for a developer move that changes it: 409 `app_removed` once
 * it is removed. Removal locks the same row, so a move that started before the removal either commits
 * first or sees the game removed; none lands after it (a release live, an origin claimed).
 */
export async function lockOpenGame(trx: Knex.Transaction, appId: string): Promise<ArcadeApp> {
  const game = await ArcadeGame.query(trx).findById(appId).forUpdate();
  if (!game) throw gameNotFound();
  if (game.status === 'removed') throw appRemoved();
  return game;
}

/** The caller's app (404 `app_not_found` for anyone else's) and its game, which must exist. */
export async function ownGame(knex: Knex | Knex.Transaction, accountId: string, appId: string): Promise<ArcadeApp> {
  const app = await findOwnApp(knex, accountId, appId);
  const game = await gameOf(knex, app.id);
  if (!game) throw gameNotFound();
  return game;
}

export async function recordEvent(
  trx: Knex | Knex.Transaction,
  appId: string,
  kind: string,
  data: Record<string, unknown> = {},
): Promise<void> {
  await ArcadeEvent.query(trx).insert({ app_id: appId, kind, data });
}

export interface EnableInput {
  slug: string;
  terms_version: string;
}

/**
 * The developer terms a request deals in (spec: Terms; `terms_required` "also when the version differs
 * from the server's own, even if the database would accept it, during updates"). A request reads the terms
 * this process serves once, at its start: the version it holds the client's `terms_version` to and the
 * text whose hash it records. The write then reads the database's current version with its settings row
 * locked (publishing new terms waits for the write, and the write for a publication under way), and
 * refuses when the two differ: an acceptance is recorded only for the text the client was shown, and it is
 * the current one when it commits.
 */
async function servedTerms(knex: Knex): Promise<ArcadeSettings> {
  return arcadeSettings(knex);
}

/** The database's current terms version, locked until the transaction ends. */
async function lockedTermsVersion(trx: Knex.Transaction): Promise<string> {
  const row = await StoreSettings.query(trx).select('terms_version').forShare().first();
  return row!.terms_version;
}

function termsRequired(current: string) {
  return forbidden('terms_required', { field: 'terms_version' }, `The current terms are ${current}.`);
}

/** The terms changed while the request ran: the client must read them again. */
function termsChanging() {
  return forbidden(
    'terms_required',
    { field: 'terms_version' },
    'The developer terms are being updated: read them again and retry shortly.',
  );
}

/** POST /account/apps/{id}/arcade: every refusal of the spec in its order, then the game and its claim. */
export async function enableArcade(
  knex: Knex,
  account: Account,
  session: Session,
  appId: string,
  input: EnableInput,
  minAccountAgeDays: number,
  checkSlug: (slug: string) => void,
): Promise<ArcadeApp> {
  const app = await findOwnApp(knex, account.id, appId);
  const served = await servedTerms(knex);
  // Only a game that is made spends one of the day's 5 enables: the use is taken before the work, so
  // parallel requests cannot all pass with one left, and given back by every refusal.
  return limiterFor(knex, ENABLES).within([account.id], () =>
    knex.transaction(async (trx) => {
      // One account at a time, so two requests cannot both take the last place under the app limit.
      await trx('accounts').where({ id: account.id }).forUpdate().first('id');
      // Eligibility below reads the terms under this lock: a publication waits for this enable to commit.
      await lockedTermsVersion(trx);
      const eligibility = await eligibilityOf(trx, account, session, minAccountAgeDays);
      // A version this process does not serve is refused where the spec puts terms_required, even when the
      // database (eligibility.terms.current) already holds it.
      const offered = input.terms_version === served.terms_version ? input.terms_version : null;
      const refusal = firstRefusal(
        { ...eligibility, arcade_apps: { ...eligibility.arcade_apps, limit: null } },
        minAccountAgeDays,
        offered,
      );
      if (refusal) {
        const changing =
          refusal.members.reason === 'terms_required' && served.terms_version !== eligibility.terms.current;
        throw changing ? termsChanging() : refusal;
      }
      checkSlug(input.slug);
      if (await gameOf(trx, app.id)) throw conflict('already_enabled', {}, 'Arcade is already enabled on this app.');
      const { used, limit } = eligibility.arcade_apps;
      if (limit !== null && used >= limit) {
        throw conflict('arcade_app_limit', { limit, count: used }, `An account holds at most ${limit} Arcade games.`);
      }
      const taken = await ArcadeClaim.query(trx).select('app_id').findById(['slug', input.slug]);
      if (taken) throw conflict('slug_taken', {}, 'This slug is taken, now or before.');
      await ArcadeClaim.query(trx).insert({ kind: 'slug', value: input.slug, app_id: app.id });
      await ArcadeTermsAcceptance.query(trx).insert({
        account_id: account.id,
        version: served.terms_version,
        text_sha256: served.terms_sha256,
      });
      const created = await ArcadeGame.query(trx)
        .insert({ app_id: app.id, account_id: account.id, slug: input.slug, terms_version: served.terms_version })
        .returning('*');
      await recordEvent(trx, app.id, 'enabled', { slug: input.slug });
      return created;
    }),
  );
}

/** POST /account/arcade/terms: the version this process serves, still current when recorded, with its hash. */
export async function acceptTerms(knex: Knex, account: Account, version: string) {
  const served = await servedTerms(knex);
  if (version !== served.terms_version) throw termsRequired(served.terms_version);
  // 10 recorded acceptances a day: a refusal gives its use back.
  await limiterFor(knex, TERMS).within([account.id], () =>
    knex.transaction(async (trx) => {
      if ((await lockedTermsVersion(trx)) !== served.terms_version) throw termsChanging();
      await ArcadeTermsAcceptance.query(trx).insert({
        account_id: account.id,
        version: served.terms_version,
        text_sha256: served.terms_sha256,
      });
    }),
  );
  return { terms: { current: served.terms_version, accepted: served.terms_version } };
}

/** Whether the account accepted the current terms (submit and live need it). */
export async function acceptedCurrentTerms(knex: Knex | Knex.Transaction, accountId: string): Promise<boolean> {
  const settings = await arcadeSettings(knex);
  const row = await ArcadeTermsAcceptance.query(knex)
    .select('version')
    .where({ account_id: accountId })
    .orderBy([
      { column: 'accepted_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first();
  return row?.version === settings.terms_version;
}
