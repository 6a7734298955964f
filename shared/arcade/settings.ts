// Arcade's operator settings (DECISIONS: `npm run op -- arcade ...`): open publishing, the app limit, the
// current developer terms, the allowlist and the blocked networks and registrars. One settings row,
// created by the migration with the first terms version.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { raw } from 'objection';
import { Account } from '../accounts/account.js';
import { ArcadeAllowed, ArcadeTerms, BlockedNetwork, BlockedRegistrar, StoreSettings } from './models.js';

export interface ArcadeSettings {
  open_publishing: boolean;
  app_limit: number;
  terms_version: string;
  terms_sha256: string;
}

export async function arcadeSettings(knex: Knex | Knex.Transaction): Promise<ArcadeSettings> {
  const row = await StoreSettings.query(knex)
    .alias('s')
    .join('arcade_terms as t', 't.version', 's.terms_version')
    .select('s.open_publishing', 's.app_limit', 's.terms_version', 't.text_sha256 as terms_sha256')
    .first()
    .castTo<ArcadeSettings | undefined>();
  if (!row) throw new Error('arcade_settings has no row: run the migrations');
  return row;
}

export async function setOpenPublishing(knex: Knex, open: boolean): Promise<void> {
  await StoreSettings.query(knex).patch({ open_publishing: open });
}

export async function setAppLimit(knex: Knex, limit: number): Promise<void> {
  if (!Number.isInteger(limit) || limit < 0) throw new Error('the app limit is a whole number, 0 or more');
  await StoreSettings.query(knex).patch({ app_limit: limit });
}

/** Publishes a terms version (its text is what developers are shown) and makes it current. */
export async function publishTerms(knex: Knex, version: string, text: string): Promise<void> {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/.test(version)) throw new Error(`not a terms version: ${version}`);
  if (text.trim() === '') throw new Error('the terms text is empty');
  const sha = createHash('sha256').update(text).digest('hex');
  await knex.transaction(async (trx) => {
    const existing = await ArcadeTerms.query(trx).select('text_sha256').findById(version);
    // A version names one text forever: what someone accepted must not change under them.
    if (existing && existing.text_sha256 !== sha) throw new Error(`terms ${version} exist with another text`);
    if (!existing) await ArcadeTerms.query(trx).insert({ version, text, text_sha256: sha });
    await StoreSettings.query(trx).patch({ terms_version: version });
  });
}

/**
 * The current developer terms as GET /account/arcade/terms shows them: the version, its text, and the
 * SHA-256 (hex, of the text's UTF-8) that an acceptance of that version records.
 */
export async function currentTermsText(knex: Knex): Promise<{ version: string; text: string; sha256: string }> {
  const row = await StoreSettings.query(knex)
    .alias('s')
    .join('arcade_terms as t', 't.version', 's.terms_version')
    .select('t.version', 't.text', 't.text_sha256 as sha256')
    .first()
    .castTo<{ version: string; text: string; sha256: string }>();
  return row;
}

/** Tests: back to what the migration left (the first terms, publishing closed, limit 3). */
export async function resetArcadeSettings(knex: Knex): Promise<void> {
  const first = (await ArcadeTerms.query(knex).select('version').orderBy('created_at').orderBy('version').first())!;
  await StoreSettings.query(knex).patch({ open_publishing: false, app_limit: 3, terms_version: first.version });
  await ArcadeTerms.query(knex).whereNot({ version: first.version }).delete();
}

async function accountIdOf(knex: Knex, username: string): Promise<string> {
  const row = await Account.query(knex).select('id').whereRaw('lower(username) = lower(?)', [username]).first();
  if (!row) throw new Error(`no account is named ${username}`);
  return row.id;
}

/** Invites an account: it skips the age rule and the app limit, and may publish while publishing is closed. */
export async function allowPublisher(knex: Knex, username: string, allowed: boolean): Promise<void> {
  const accountId = await accountIdOf(knex, username);
  if (allowed) await ArcadeAllowed.query(knex).insert({ account_id: accountId }).onConflict('account_id').ignore();
  else await ArcadeAllowed.query(knex).deleteById(accountId);
}

/** A network whose addresses may not host a game (submit and live answer url_denied, detail network). */
export async function blockNetwork(knex: Knex, cidr: string): Promise<void> {
  await BlockedNetwork.query(knex)
    .insert({ network: raw('CAST(? AS cidr)', [cidr]) })
    .onConflict()
    .ignore();
}

/** A registrar whose domains may not host a game. */
export async function blockRegistrar(knex: Knex, name: string): Promise<void> {
  const value = name.trim().toLowerCase();
  if (!value) throw new Error('name the registrar');
  await BlockedRegistrar.query(knex).insert({ name: value }).onConflict('name').ignore();
}
