// Staff for moderation tests: a named account with a role, two-factor on and (unless asked otherwise)
// a session that passed it, as DECISIONS requires of moderation routes.
import type { Role } from '../../shared/accounts/account.js';
import { claimFirstUsername } from '../../shared/accounts/usernames.js';
import { currentTotp } from '../../shared/auth/totp.js';
import { db } from '../../shared/platform/db/knex.js';
import { signedInClient } from './factories.js';
import type { TestClient } from './http-client.js';

export async function staffMember(
  http: TestClient,
  username: string,
  options: { role?: Role; passTwoFactor?: boolean } = {},
) {
  const signed = await signedInClient(http, { twoFactor: true });
  await db().transaction((trx) => claimFirstUsername(trx, signed.account.id, username));
  await db()('accounts')
    .where({ id: signed.account.id })
    .update({ role: options.role ?? 'moderator' });
  if (options.passTwoFactor !== false) {
    const passed = await signed.site.post('/api/auth/two-factor', { code: currentTotp(signed.totpSecret!) });
    if (passed.status !== 200) throw new Error(`second factor failed: ${passed.status} ${passed.text}`);
  }
  return signed;
}
