// Arcade developers for tests: an account that meets every eligibility rule unless told otherwise (two-factor
// on and passed, email verified, adult, old enough, allowlisted or publishing open), with an app.
import { currentTotp } from '../../shared/auth/totp.js';
import { db } from '../../shared/platform/db/knex.js';
import { createApp } from '../../shared/keys/apps.js';
import type { FakeHost } from './fake-host.js';
import { signedInClient } from './factories.js';
import type { TestClient } from './http-client.js';

export interface DeveloperOptions {
  twoFactor?: boolean;
  passTwoFactor?: boolean;
  emailVerified?: boolean;
  adult?: boolean;
  ageDays?: number;
  allowlisted?: boolean;
}

export async function arcadeDeveloper(http: TestClient, options: DeveloperOptions = {}) {
  const twoFactor = options.twoFactor ?? true;
  const signed = await signedInClient(http, { twoFactor });
  const born = new Date();
  born.setUTCFullYear(born.getUTCFullYear() - (options.adult === false ? 16 : 30));
  await db()('accounts')
    .where({ id: signed.account.id })
    .update({
      email_verified_at: options.emailVerified === false ? null : new Date(),
      birth_date: born.toISOString().slice(0, 10),
      created_at: new Date(Date.now() - (options.ageDays ?? 60) * 86_400_000),
    });
  if (options.allowlisted !== false) await db()('arcade_allowlist').insert({ account_id: signed.account.id });
  if (twoFactor && options.passTwoFactor !== false) {
    const passed = await signed.site.post('/api/auth/two-factor', { code: currentTotp(signed.totpSecret!) });
    if (passed.status !== 200) throw new Error(`second factor failed: ${passed.status} ${passed.text}`);
  }
  const app = await createApp(db(), signed.account.id, { name: 'A game' });
  return { ...signed, app };
}

export async function currentTermsVersion(): Promise<string> {
  return (await db()('arcade_settings').first('terms_version')).terms_version as string;
}

/** Enables Arcade on the developer's app with `slug`; throws unless 201. */
export async function enabledGame(developer: Awaited<ReturnType<typeof arcadeDeveloper>>, slug: string) {
  const res = await developer.site.post(`/api/v1/account/apps/${developer.app.id}/arcade`, {
    slug,
    terms_version: await currentTermsVersion(),
  });
  if (res.status !== 201) throw new Error(`enable failed: ${res.status} ${res.text}`);
  return res.body.data.app;
}

/** A complete store page body (spec: Store page draft), to change field by field. */
export function listingBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Space Rocks',
    tagline: 'Shoot the rocks.',
    description: { default_locale: 'en', 'pt-BR': '', en: 'A game about rocks in space.', es: '' },
    tags: ['arcade', 'shooter'],
    age_rating: '10',
    orientation: 'landscape',
    platforms: ['desktop'],
    privacy_url: 'https://rocks.example.com/privacy',
    terms_url: null,
    support_url: 'https://rocks.example.com/support',
    controller_name: 'Rock Studio',
    controller_country: 'BR',
    privacy_contact: 'privacy@rocks.example.com',
    ...overrides,
  };
}

/** A release row as the release rules leave it, for games built straight in the database. */
export function releaseColumns(origin = 'https://rocks.example.com', overrides: Record<string, unknown> = {}) {
  return {
    entry_url: `${origin}/play/`,
    entry_origin: origin,
    capabilities: [],
    scopes: [],
    orientation: 'landscape',
    platforms: ['desktop'],
    third_parties: '[]',
    data_events_url: null,
    notes: '',
    ...overrides,
  };
}

/**
 * A game straight in the database (for the public and moderation sides): `listed` gives it an approved
 * store page and a live release, approved `approvedAt`.
 */
export async function seededGame(
  accountId: string,
  appId: string,
  slug: string,
  options: { listed?: boolean; name?: string; approvedAt?: Date; notice?: 'suspended' | 'flagged' | 'hidden' } = {},
) {
  const terms = await currentTermsVersion();
  await db()('arcade_claims').insert({ kind: 'slug', value: slug, app_id: appId });
  await db()('arcade_apps').insert({ app_id: appId, account_id: accountId, slug, terms_version: terms });
  if (!options.listed) return;
  const at = options.approvedAt ?? new Date();
  // As submitting it would have: the release's origin is the game's.
  await db()('arcade_claims').insert({ kind: 'origin', value: `https://${slug}.example.com`, app_id: appId });
  const [release] = await db()('arcade_releases')
    .insert({
      app_id: appId,
      number: 1,
      status: 'approved',
      approved_at: at,
      ...releaseColumns(`https://${slug}.example.com`),
    })
    .returning('id');
  await db()('arcade_listings').insert({
    app_id: appId,
    number: 1,
    status: 'approved',
    fields: JSON.stringify(listingBody({ name: options.name ?? slug })),
    reviewed_at: at,
  });
  await db()('arcade_apps')
    .where({ app_id: appId })
    .update({
      status: options.notice === 'suspended' ? 'suspended' : options.notice === 'hidden' ? 'hidden' : 'listed',
      approved_at: at,
      live_release_id: release.id,
      notice_kind: options.notice ?? null,
      notice_at: options.notice ? new Date() : null,
    });
}

export const GAME_PAGE = '<!doctype html><title>Rocks</title><canvas></canvas>';

/** A developer host serving the proof for `appId` and the game page at `/play/`. */
export function serveGame(host: FakeHost, appId: string, page = GAME_PAGE): void {
  host.routes['/.well-known/jogatina-arcade.txt'] = { headers: { 'content-type': 'text/plain' }, body: `${appId}\n` };
  host.routes['/play/'] = { headers: { 'content-type': 'text/html; charset=utf-8' }, body: page };
}

export function releaseBody(host: FakeHost, overrides: Record<string, unknown> = {}) {
  return {
    entry_url: host.url('/play/'),
    capabilities: [],
    scopes: [],
    orientation: 'landscape',
    platforms: ['desktop'],
    third_parties: [],
    data_events_url: null,
    notes: 'Thanks for looking.',
    ...overrides,
  };
}

/** Puts an approved release live on a game straight in the database (origin and columns as given). */
export async function liveRelease(appId: string, origin: string, overrides: Record<string, unknown> = {}) {
  const [release] = await db()('arcade_releases')
    .insert({
      app_id: appId,
      number: 1,
      status: 'approved',
      approved_at: new Date(),
      ...releaseColumns(origin, overrides),
    })
    .returning('id');
  await db()('arcade_apps').where({ app_id: appId }).update({ status: 'listed', live_release_id: release.id });
  return release.id as string;
}

/**
 * A listed game on `origin` whose live release asks identify, and a player who agreed to it; `eventsUrl`
 * null makes its data events wait.
 */
export async function gameWithPlayer(http: TestClient, origin: string, slug: string, eventsUrl: string | null) {
  const dev = await arcadeDeveloper(http);
  await enabledGame(dev, slug);
  await liveRelease(dev.app.id, origin, { scopes: ['identify'], data_events_url: eventsUrl });
  const player = await signedInClient(http);
  await player.site.post('/api/v1/account/arcade/grants', { app_id: dev.app.id, nickname: 'Gamer' });
  return { dev, player, appId: dev.app.id as string };
}
