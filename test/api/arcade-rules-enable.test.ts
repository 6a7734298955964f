// Enabling Arcade (spec arcade.md: POST /account/apps/{id}/arcade): a session that still owes its second
// factor is refused with mfa_required, and one account with every defect at once is refused in the order
// of the spec's list of 403 reasons, one defect at a time, until it enables.
import { expect } from 'chai';
import { currentTotp, newTotpSecret } from '../../shared/auth/totp.js';
import { seal } from '../../shared/platform/crypto/sealed-box.js';
import { config } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import { setOpenPublishing } from '../../shared/arcade/settings.js';
import { arcadeDeveloper, currentTermsVersion } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

type Res = { status: number; body: { error?: { reason?: string; field?: string } } };
const refusal = (res: Res) => [res.status, res.body.error?.reason];

describe('Arcade rules: enabling', () => {
  useCleanDatabase();
  const app = useTestApp();

  after(() => setOpenPublishing(db(), false));

  const gamesOf = (appId: string) => db()('arcade_apps').where({ app_id: appId });

  it('refuses a session that owes its second factor with mfa_required, and enables once it passes', async () => {
    const dev = await arcadeDeveloper(app.client, { passTwoFactor: false });
    const body = { slug: 'owing-factor', terms_version: await currentTermsVersion() };
    const refused = await dev.site.post(`/api/v1/account/apps/${dev.app.id}/arcade`, body);
    expect(refusal(refused)).to.deep.equal([403, 'mfa_required']);
    // The database changes nothing for such a session: no game, no slug held, no terms recorded.
    expect(await gamesOf(dev.app.id)).to.have.length(0);
    expect(await db()('arcade_claims').where({ value: 'owing-factor' })).to.have.length(0);
    expect(await db()('arcade_terms_acceptances').where({ account_id: dev.account.id })).to.have.length(0);
    // The same session, once it passed the factor, is let through: the factor was the only thing missing.
    const passed = await dev.site.post('/api/auth/two-factor', { code: currentTotp(dev.totpSecret!) });
    expect(passed.status, passed.text).to.equal(200);
    const enabled = await dev.site.post(`/api/v1/account/apps/${dev.app.id}/arcade`, body);
    expect(enabled.status, enabled.text).to.equal(201);
  });

  /**
   * One account with every defect at once (uninvited while publishing is closed, no two-factor, email
   * unverified, 3 days old, 16, blocked from publishing, suspended when asked; the request offers terms that
   * are not current), refused in the order of the spec's 403 reasons: each refusal is asserted, its defect
   * fixed, and the next one asserted, until the account enables.
   */
  async function refusedInOrder(options: { suspended: boolean }) {
    const dev = await arcadeDeveloper(app.client, {
      twoFactor: false,
      allowlisted: false,
      emailVerified: false,
      ageDays: 3,
      adult: false,
    });
    const accounts = () => db()('accounts').where({ id: dev.account.id });
    if (options.suspended) {
      await db()('infractions').insert({
        account_id: dev.account.id,
        reason: 'Suspensão',
        expires_at: new Date(Date.now() + 86_400_000),
      });
    }
    await db()('publisher_blocks').insert({ account_id: dev.account.id });
    const current = await currentTermsVersion();
    let site = dev.site;
    let terms = 'not-the-current-terms';
    const slug = options.suspended ? 'many-defects-banned' : 'many-defects';
    const enable = () => site.post(`/api/v1/account/apps/${dev.app.id}/arcade`, { slug, terms_version: terms });

    await setOpenPublishing(db(), false);
    expect(refusal(await enable())).to.deep.equal([403, 'not_allowlisted']);
    // Fixed by opening publishing (an invitation would also lift the age rule, which comes later).
    await setOpenPublishing(db(), true);
    expect(refusal(await enable())).to.deep.equal([403, 'two_factor_required']);
    // Two-factor turned on, then a new sign-in: that session owes the factor until it passes it.
    const totpSecret = newTotpSecret();
    await accounts().update({
      two_factor_secret: seal(config().secret, 'totp-secret', totpSecret),
      two_factor_enabled_at: new Date(),
    });
    site = new SiteClient(app.client);
    const signedIn = await site.post('/api/auth/sign-in', { email: dev.email, password: dev.password });
    expect(signedIn.status, signedIn.text).to.equal(200);
    expect(refusal(await enable())).to.deep.equal([403, 'mfa_required']);
    const passed = await site.post('/api/auth/two-factor', { code: currentTotp(totpSecret) });
    expect(passed.status, passed.text).to.equal(200);
    expect(refusal(await enable())).to.deep.equal([403, 'email_unverified']);
    await accounts().update({ email_verified_at: new Date() });
    expect(refusal(await enable())).to.deep.equal([403, 'account_too_new']);
    await accounts().update({ created_at: new Date(Date.now() - 60 * 86_400_000) });
    expect(refusal(await enable())).to.deep.equal([403, 'adult_required']);
    await accounts().update({ birth_date: '1990-01-01' });
    const stale = await enable();
    expect([...refusal(stale), stale.body.error?.field]).to.deep.equal([403, 'terms_required', 'terms_version']);
    terms = current;
    if (options.suspended) {
      expect(refusal(await enable())).to.deep.equal([403, 'banned']);
      await db()('infractions').where({ account_id: dev.account.id }).delete();
    }
    expect(refusal(await enable())).to.deep.equal([403, 'publisher_blocked']);
    await db()('publisher_blocks').where({ account_id: dev.account.id }).delete();
    // Nothing left in the way: every refusal above was one of these defects.
    const enabled = await enable();
    expect(enabled.status, enabled.text).to.equal(201);
    expect(enabled.body.data.app).to.deep.include({ slug, status: 'draft' });
    // Refusals gave their use of the day's 5 enables back: only the one made is counted.
    const used = await db()('rate_limits')
      .where({ key: `attempt:arcade-enable:${dev.account.id}` })
      .first('points');
    expect(used?.points).to.equal(1);
  }

  it('refuses one account with every defect but a suspension in the spec’s order, then enables', () =>
    refusedInOrder({ suspended: false }));

  // The same with a suspension too: the spec lists `banned` after `terms_required`, so a suspended account
  // hears first what else stands in the way (the eligibility code orders it so; the route's suspension
  // check must not answer before it).
  it('refuses a suspended account with every defect in the spec’s order, banned after terms_required', () =>
    refusedInOrder({ suspended: true }));
});
