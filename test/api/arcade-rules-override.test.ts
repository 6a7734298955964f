// The development URL's rules the other files leave untested (spec arcade.md: Release `can_test`, PUT and
// DELETE .../override): `can_test` says exactly which releases the URL may use; PUT refuses a suspended
// account with `banned` and a session without its second factor with `mfa_required`; clearing is free.
import { expect } from 'chai';
import { currentTotp } from '../../shared/auth/totp.js';
import { db } from '../../shared/platform/db/knex.js';
import { arcadeDeveloper, enabledGame, listingBody, releaseColumns } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

type Res = { status: number; body: { error?: { code?: string; reason?: string } } };
const refusal = (res: Res) => [res.status, res.body.error?.code, res.body.error?.reason];

describe('Arcade rules: the development URL', () => {
  useCleanDatabase();
  const app = useTestApp();

  /** A game with a store-page draft (so the URL can open) and one draft release. */
  async function game(slug: string) {
    const dev = await arcadeDeveloper(app.client);
    await enabledGame(dev, slug);
    expect((await dev.site.put(`/api/v1/account/apps/${dev.app.id}/arcade/listing`, listingBody())).status).to.equal(
      200,
    );
    const [release] = await db()('arcade_releases')
      .insert({ app_id: dev.app.id, number: 1, status: 'draft', ...releaseColumns() })
      .returning('id');
    const base = `/api/v1/account/apps/${dev.app.id}/arcade`;
    return { dev, base, override: `${base}/override`, releaseId: release.id as string };
  }

  const savesUsed = async (appId: string) =>
    (
      await db()('rate_limits')
        .where({ key: `attempt:arcade-override-save:${appId}` })
        .first('points')
    )?.points ?? 0;

  it('answers can_test for draft, submitted, in review and approved releases only, as PUT .../override agrees', async () => {
    const { dev, base, override, releaseId } = await game('can-test');
    // The other statuses are moderation's and the developer's moves; built here directly, one release each.
    const statuses = ['submitted', 'in_review', 'approved', 'rejected', 'withdrawn', 'revoked'];
    const ids: Record<string, string> = { draft: releaseId };
    for (const [i, status] of statuses.entries()) {
      const [row] = await db()('arcade_releases')
        .insert({ app_id: dev.app.id, number: i + 2, status, ...releaseColumns() })
        .returning('id');
      ids[status] = row.id;
    }
    const listed = await dev.site.get(`${base}/releases`);
    expect(listed.status).to.equal(200);
    const canTest = Object.fromEntries(
      listed.body.data.map((r: { status: string; can_test: boolean }) => [r.status, r.can_test]),
    );
    expect(canTest).to.deep.equal({
      draft: true,
      submitted: true,
      in_review: true,
      approved: true,
      rejected: false,
      withdrawn: false,
      revoked: false,
    });
    // What can_test promises is what saving the URL on that release does.
    for (const [status, id] of Object.entries(ids)) {
      const res = await dev.site.put(override, { url: 'http://localhost:5173/', release_id: id });
      const outcome = res.status === 200 ? [200] : refusal(res);
      expect(outcome, status).to.deep.equal(canTest[status] ? [200] : [404, 'not_found', 'release_not_found']);
    }
  });

  it('refuses PUT to a suspended account with banned, saving and spending nothing, and saves once lifted', async () => {
    const { dev, override, releaseId } = await game('override-banned');
    await db()('infractions').insert({
      account_id: dev.account.id,
      reason: 'Suspensão',
      expires_at: new Date(Date.now() + 86_400_000),
    });
    const body = { url: 'http://localhost:5173/', release_id: releaseId };
    expect(refusal(await dev.site.put(override, body))).to.deep.equal([403, 'forbidden', 'banned']);
    expect((await dev.site.get(override)).body).to.deep.equal({ data: { override: null } });
    expect(await savesUsed(dev.app.id)).to.equal(0);
    // A permanent ban is refused the same way.
    await db()('infractions')
      .where({ account_id: dev.account.id })
      .update({ reason: 'Banimento permanente', expires_at: null });
    expect(refusal(await dev.site.put(override, body))).to.deep.equal([403, 'forbidden', 'banned']);
    await db()('infractions').where({ account_id: dev.account.id }).delete();
    const saved = await dev.site.put(override, body);
    expect(saved.status).to.equal(200);
    expect(saved.body.data.override.changes_left).to.equal(19);
  });

  it('refuses PUT with mfa_required to a session that has not passed two-factor, and saves once it has', async () => {
    const { dev, override, releaseId } = await game('override-mfa');
    // A second sign-in of the same owner: the account has two-factor on and this session has not passed it.
    const owing = new SiteClient(app.client);
    expect((await owing.post('/api/auth/sign-in', { email: dev.email, password: dev.password })).status).to.equal(200);
    const body = { url: 'http://localhost:5173/', release_id: releaseId };
    expect(refusal(await owing.put(override, body))).to.deep.equal([403, 'forbidden', 'mfa_required']);
    expect((await dev.site.get(override)).body.data.override).to.equal(null);
    expect(await savesUsed(dev.app.id)).to.equal(0);
    // The same session after its second factor: the factor was the only thing missing. (The owner's first
    // session already used this step's code, and a code counts once: the step is forgotten, not waited out.)
    await db()('accounts').where({ id: dev.account.id }).update({ totp_last_step: null });
    expect((await owing.post('/api/auth/two-factor', { code: currentTotp(dev.totpSecret!) })).status).to.equal(200);
    expect((await owing.put(override, body)).status).to.equal(200);
  });

  it('leaves changes_left as it was when the URL is cleared: clearing neither spends a save nor gives one back', async () => {
    const { dev, override, releaseId } = await game('override-clear');
    const save = (port: number) => dev.site.put(override, { url: `http://localhost:${port}/`, release_id: releaseId });
    expect((await save(5173)).body.data.override.changes_left).to.equal(19);
    expect(await savesUsed(dev.app.id)).to.equal(1);
    expect((await dev.site.delete(override)).body).to.deep.equal({ data: { override: null } });
    expect(await savesUsed(dev.app.id)).to.equal(1);
    // Clearing again, with nothing saved, answers the same and counts nothing either.
    expect((await dev.site.delete(override)).body).to.deep.equal({ data: { override: null } });
    expect(await savesUsed(dev.app.id)).to.equal(1);
    // 19 before clearing, one save since: 18 (17 if clearing spent saves, 19 if it gave one back).
    expect((await save(5174)).body.data.override.changes_left).to.equal(18);
  });
});
