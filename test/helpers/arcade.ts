// Arcade developers for tests: an account that meets every eligibility rule unless told otherwise (two-factor
// on and passed, email verified, adult, old enough, allowlisted or publishing open), with an app.
import { currentTotp } from '../../shared/auth/totp.js';
import { db } from '../../shared/db/knex.js';
import { createApp } from '../../shared/keys/apps.js';
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
