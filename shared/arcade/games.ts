// Arcade games: enabling Arcade on an app, the developer terms, and the timeline. A game is the
// `arcade_apps` row of an app; its slug is claimed for good in `arcade_claims` in the same transaction.
import type { Knex } from 'knex';
import type { Account } from '../accounts/account.js';
import { limiterFor } from '../auth/attempts.js';
import type { Session } from '../auth/models.js';
import { registerConstraint } from '../db/database-errors.js';
import { conflict, forbidden, notFound } from '../errors.js';
import { findOwnApp } from '../keys/apps.js';
import { firstRefusal, eligibilityOf } from './eligibility.js';
import { arcadeSettings } from './settings.js';

export interface ArcadeApp {
  app_id: string;
  account_id: string;
  slug: string;
  status: 'draft' | 'listed' | 'hidden' | 'suspended' | 'removed';
  terms_version: string;
  live_release_id: string | null;
  previous_live_release_id: string | null;
  notice_kind: 'suspended' | 'flagged' | 'hidden' | null;
  notice_reason: string | null;
  notice_at: Date | null;
  approved_at: Date | null;
  created_at: Date;
  updated_at: Date;
  removed_at: Date | null;
}

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
  return ((await knex('arcade_apps').where({ app_id: appId }).first()) as ArcadeApp | undefined) ?? null;
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
  await trx('arcade_events').insert({ app_id: appId, kind, data });
}

export interface EnableInput {
  slug: string;
  terms_version: string;
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
  const limiter = limiterFor(knex, ENABLES);
  await limiter.check([account.id]);
  const game = await knex.transaction(async (trx) => {
    // One account at a time, so two requests cannot both take the last place under the app limit.
    await trx('accounts').where({ id: account.id }).forUpdate().first('id');
    const eligibility = await eligibilityOf(trx, account, session, minAccountAgeDays);
    const refusal = firstRefusal(
      { ...eligibility, arcade_apps: { ...eligibility.arcade_apps, limit: null } },
      minAccountAgeDays,
      input.terms_version,
    );
    if (refusal) throw refusal;
    checkSlug(input.slug);
    if (await gameOf(trx, app.id)) throw conflict('already_enabled', {}, 'Arcade is already enabled on this app.');
    const { used, limit } = eligibility.arcade_apps;
    if (limit !== null && used >= limit) {
      throw conflict('arcade_app_limit', { limit, count: used }, `An account holds at most ${limit} Arcade games.`);
    }
    const taken = await trx('arcade_claims').where({ kind: 'slug', value: input.slug }).first('app_id');
    if (taken) throw conflict('slug_taken', {}, 'This slug is taken, now or before.');
    await trx('arcade_claims').insert({ kind: 'slug', value: input.slug, app_id: app.id });
    const settings = await arcadeSettings(trx);
    await trx('arcade_terms_acceptances').insert({
      account_id: account.id,
      version: settings.terms_version,
      text_sha256: settings.terms_sha256,
    });
    const [created] = await trx('arcade_apps')
      .insert({ app_id: app.id, account_id: account.id, slug: input.slug, terms_version: settings.terms_version })
      .returning('*');
    await recordEvent(trx, app.id, 'enabled', { slug: input.slug });
    return created as ArcadeApp;
  });
  await limiter.fail([account.id]);
  return game;
}

/** POST /account/arcade/terms: the current version only, recorded with the hash of its text. */
export async function acceptTerms(knex: Knex, account: Account, version: string) {
  const settings = await arcadeSettings(knex);
  if (version !== settings.terms_version) {
    throw forbidden('terms_required', { field: 'terms_version' }, `The current terms are ${settings.terms_version}.`);
  }
  const limiter = limiterFor(knex, TERMS);
  await limiter.spend([account.id]);
  await knex('arcade_terms_acceptances').insert({
    account_id: account.id,
    version: settings.terms_version,
    text_sha256: settings.terms_sha256,
  });
  return { terms: { current: settings.terms_version, accepted: settings.terms_version } };
}

/** Whether the account accepted the current terms (submit and live need it). */
export async function acceptedCurrentTerms(knex: Knex | Knex.Transaction, accountId: string): Promise<boolean> {
  const settings = await arcadeSettings(knex);
  const row = await knex('arcade_terms_acceptances')
    .where({ account_id: accountId })
    .orderBy([
      { column: 'accepted_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first('version');
  return row?.version === settings.terms_version;
}
