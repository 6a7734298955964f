// Arcade's first steps: the eligibility object, the developer terms, enabling Arcade with every refusal in
// the spec's order, the app answers' `arcade` summary and deleting an app that has a game.
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { createApp } from '../../shared/keys/apps.js';
import { publishTerms, setAppLimit, setOpenPublishing } from '../../shared/arcade/settings.js';
import { arcadeDeveloper, currentTermsVersion, enabledGame, type DeveloperOptions } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import { useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

describe('Arcade: eligibility, terms and enabling', () => {
  useCleanDatabase();
  const app = useTestApp();

  const developer = (options?: DeveloperOptions) => arcadeDeveloper(app.client, options);
  const enable = async (dev: Awaited<ReturnType<typeof developer>>, body: Record<string, unknown>) =>
    dev.site.post(`/api/v1/account/apps/${dev.app.id}/arcade`, body);
  const refusal = (res: { status: number; body: { error?: { reason?: string; field?: string } } }) => [
    res.status,
    res.body.error?.reason,
  ];

  it('answers the eligibility object exactly, and a null app until Arcade is enabled', async () => {
    const dev = await developer({ ageDays: 20 });
    const res = await dev.site.get(`/api/v1/account/apps/${dev.app.id}/arcade`);
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.equal({
      eligibility: {
        allowlisted: true,
        two_factor: true,
        mfa_session: true,
        email_verified: true,
        account_age_days: 20,
        adult: true,
        terms: { current: await currentTermsVersion(), accepted: null },
        banned: false,
        open_publishing: false,
        blocked: false,
        arcade_apps: { used: 0, limit: null },
        eligible: true,
      },
      app: null,
    });
  });

  it('shows what stands in the way: no two-factor, young, minor, unverified, uninvited', async () => {
    const dev = await developer({
      twoFactor: false,
      adult: false,
      emailVerified: false,
      allowlisted: false,
      ageDays: 3,
    });
    const { eligibility } = (await dev.site.get(`/api/v1/account/apps/${dev.app.id}/arcade`)).body.data;
    expect(eligibility).to.deep.include({
      allowlisted: false,
      two_factor: false,
      mfa_session: false,
      email_verified: false,
      account_age_days: 3,
      adult: false,
      eligible: false,
      arcade_apps: { used: 0, limit: 3 },
    });
  });

  it('is the owner’s alone, and for a session only', async () => {
    const dev = await developer();
    const other = await developer();
    expect(refusal(await other.site.get(`/api/v1/account/apps/${dev.app.id}/arcade`))).to.deep.equal([
      404,
      'app_not_found',
    ]);
    const { token } = await appWithKey(dev.account.id, ['profile.read']);
    const keyed = await app.client.get(`/api/v1/account/apps/${dev.app.id}/arcade`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(keyed.status).to.equal(403);
    const owing = await developer({ passTwoFactor: false });
    expect(refusal(await owing.site.get(`/api/v1/account/apps/${owing.app.id}/arcade`))).to.deep.equal([
      403,
      'mfa_required',
    ]);
  });

  it('refuses to enable in the spec’s order of reasons', async () => {
    const terms = await currentTermsVersion();
    const cases: Array<[DeveloperOptions, string]> = [
      [{ allowlisted: false }, 'not_allowlisted'],
      [{ twoFactor: false }, 'two_factor_required'],
      [{ emailVerified: false }, 'email_unverified'],
      [{ allowlisted: false, ageDays: 5 }, 'account_too_new'],
      [{ adult: false }, 'adult_required'],
    ];
    for (const [options, reason] of cases) {
      if (reason === 'account_too_new') await setOpenPublishing(db(), true);
      const dev = await developer(options);
      expect(
        refusal(await enable(dev, { slug: `game-${reason.slice(0, 8)}`, terms_version: terms })),
        reason,
      ).to.deep.equal([403, reason]);
      await setOpenPublishing(db(), false);
    }
    const dev = await developer();
    const stale = await enable(dev, { slug: 'fine-slug', terms_version: 'old' });
    expect([stale.status, stale.body.error.reason, stale.body.error.field]).to.deep.equal([
      403,
      'terms_required',
      'terms_version',
    ]);
    await db()('publisher_blocks').insert({ account_id: dev.account.id });
    expect(refusal(await enable(dev, { slug: 'fine-slug', terms_version: terms }))).to.deep.equal([
      403,
      'publisher_blocked',
    ]);
    await db()('infractions').insert({ account_id: dev.account.id, reason: 'Banimento permanente' });
    expect(refusal(await enable(dev, { slug: 'fine-slug', terms_version: terms }))).to.deep.equal([403, 'banned']);
  });

  it('checks the slug, never reuses one, and enables once per app', async () => {
    const terms = await currentTermsVersion();
    const dev = await developer();
    for (const slug of ['ab', '-dash', 'dash-', 'UPPER', 'a'.repeat(41), 'under_score']) {
      expect(refusal(await enable(dev, { slug, terms_version: terms })), slug).to.deep.equal([400, 'slug_invalid']);
    }
    expect(refusal(await enable(dev, { slug: 'admin', terms_version: terms }))).to.deep.equal([400, 'slug_reserved']);
    expect(refusal(await enable(dev, { slug: 'x', extra: 1, terms_version: terms }))).to.deep.equal([
      400,
      'fields_invalid',
    ]);
    const created = await enable(dev, { slug: 'space-rocks', terms_version: terms });
    expect(created.status).to.equal(201);
    expect(created.body.data.app).to.deep.include({ slug: 'space-rocks', status: 'draft', notice: null });
    expect(refusal(await enable(dev, { slug: 'other-slug', terms_version: terms }))).to.deep.equal([
      409,
      'already_enabled',
    ]);
    const rival = await developer();
    expect(refusal(await enable(rival, { slug: 'space-rocks', terms_version: terms }))).to.deep.equal([
      409,
      'slug_taken',
    ]);
    // The terms were accepted by enabling.
    const { eligibility } = (await dev.site.get(`/api/v1/account/apps/${dev.app.id}/arcade`)).body.data;
    expect(eligibility.terms.accepted).to.equal(terms);
    // Removed and deleted, the slug still belongs to it.
    await db()('arcade_apps').where({ app_id: dev.app.id }).update({ status: 'removed' });
    expect((await dev.site.delete(`/api/v1/account/apps/${dev.app.id}`)).status).to.equal(200);
    expect(refusal(await enable(rival, { slug: 'space-rocks', terms_version: terms }))).to.deep.equal([
      409,
      'slug_taken',
    ]);
    let deleted: unknown = null;
    try {
      await db()('arcade_claims').where({ value: 'space-rocks' }).delete();
    } catch (error) {
      deleted = error;
    }
    expect(String(deleted)).to.match(/permanent/);
  });

  it('holds an uninvited account to the app limit, and counts enables per day', async () => {
    await setOpenPublishing(db(), true);
    await setAppLimit(db(), 1);
    const dev = await developer({ allowlisted: false });
    await enabledGame(dev, 'first-game');
    const another = await createApp(db(), dev.account.id, { name: 'second' });
    const res = await dev.site.post(`/api/v1/account/apps/${another.id}/arcade`, {
      slug: 'second-game',
      terms_version: await currentTermsVersion(),
    });
    expect([res.status, res.body.error.reason, res.body.error.limit]).to.deep.equal([409, 'arcade_app_limit', 1]);
  });

  it('refuses a sixth enable in a day with 429', async () => {
    const dev = await developer();
    const terms = await currentTermsVersion();
    for (let i = 0; i < 5; i += 1) {
      const made = await createApp(db(), dev.account.id, { name: `g${i}` });
      const res = await dev.site.post(`/api/v1/account/apps/${made.id}/arcade`, {
        slug: `daily-${i}`,
        terms_version: terms,
      });
      expect(res.status).to.equal(201);
    }
    const sixth = await createApp(db(), dev.account.id, { name: 'g6' });
    const res = await dev.site.post(`/api/v1/account/apps/${sixth.id}/arcade`, {
      slug: 'daily-6',
      terms_version: terms,
    });
    expect(res.status).to.equal(429);
    expect(res.body.error.retry_after).to.be.a('number');
  });

  it('accepts the current terms only, with two-factor, nothing else in the body, 10 a day', async () => {
    const dev = await developer();
    const terms = await currentTermsVersion();
    const stale = await dev.site.post('/api/v1/account/arcade/terms', { terms_version: 'nope' });
    expect([stale.status, stale.body.error.reason, stale.body.error.field]).to.deep.equal([
      403,
      'terms_required',
      'terms_version',
    ]);
    const extra = await dev.site.post('/api/v1/account/arcade/terms', { terms_version: terms, agree: true });
    expect([extra.status, extra.body.error.reason, extra.body.error.field]).to.deep.equal([
      400,
      'fields_invalid',
      'agree',
    ]);
    const ok = await dev.site.post('/api/v1/account/arcade/terms', { terms_version: terms });
    expect(ok.body).to.deep.equal({ data: { terms: { current: terms, accepted: terms } } });
    const stored = await db()('arcade_terms_acceptances').where({ account_id: dev.account.id }).first();
    const shown = await db()('arcade_terms').where({ version: terms }).first();
    expect(stored.text_sha256).to.equal(shown.text_sha256);
    for (let i = 1; i < 10; i += 1) await dev.site.post('/api/v1/account/arcade/terms', { terms_version: terms });
    expect((await dev.site.post('/api/v1/account/arcade/terms', { terms_version: terms })).status).to.equal(429);
    const owing = await developer({ passTwoFactor: false });
    expect(refusal(await owing.site.post('/api/v1/account/arcade/terms', { terms_version: terms }))).to.deep.equal([
      403,
      'mfa_required',
    ]);
    // A suspended account cannot accept them.
    const suspended = await developer();
    await db()('infractions').insert({
      account_id: suspended.account.id,
      reason: 'Suspensão',
      expires_at: new Date(Date.now() + 86_400_000),
    });
    expect(refusal(await suspended.site.post('/api/v1/account/arcade/terms', { terms_version: terms }))).to.deep.equal([
      403,
      'banned',
    ]);
    // New terms make the old acceptance stale.
    await publishTerms(db(), '2099-01-01', 'New terms.');
    const { eligibility } = (await dev.site.get(`/api/v1/account/apps/${dev.app.id}/arcade`)).body.data;
    expect(eligibility.terms).to.deep.equal({ current: '2099-01-01', accepted: terms });
  });

  describe('while new terms are being published', () => {
    /**
     * Publishes `version` in a transaction left open: the settings row stays locked, so a request that has
     * read the terms it serves (the old ones) waits at its write until `commit()`.
     */
    async function publishing(version: string) {
      const text = `Terms ${version}.`;
      const trx = await db().transaction();
      await trx('arcade_terms').insert({
        version,
        text,
        text_sha256: createHash('sha256').update(text).digest('hex'),
      });
      await trx('arcade_settings').update({ terms_version: version });
      return trx;
    }

    /** Until a request waits for the settings row (it has read the old terms and reached its write). */
    const waitingForTerms = () =>
      until(async () => {
        const { rows } = await db().raw(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%arcade_settings%for share%'`,
        );
        return rows[0].waiting > 0;
      });

    async function duringPublication<T>(version: string, request: () => Promise<T>): Promise<T> {
      const trx = await publishing(version);
      const answer = request();
      try {
        await waitingForTerms();
      } finally {
        await trx.commit();
      }
      return answer;
    }

    it('refuses to enable with the new version this server did not serve, though the database holds it, then enables', async () => {
      const dev = await developer();
      const newer = await duringPublication('2099-03-01', () =>
        enable(dev, { slug: 'during-update', terms_version: '2099-03-01' }),
      );
      expect([newer.status, newer.body.error.reason, newer.body.error.field]).to.deep.equal([
        403,
        'terms_required',
        'terms_version',
      ]);
      expect(newer.body.error.message).to.match(/retry/);
      // The old version, read before the publication, is no longer current when the write comes.
      const stale = await duringPublication('2099-03-02', () =>
        enable(dev, { slug: 'during-update', terms_version: '2099-03-01' }),
      );
      expect(refusal(stale)).to.deep.equal([403, 'terms_required']);
      expect(await db()('arcade_terms_acceptances').where({ account_id: dev.account.id })).to.have.length(0);
      expect(await db()('arcade_apps').where({ app_id: dev.app.id })).to.have.length(0);
      // Retried shortly, the version both this server and the database hold is taken, with its own text's hash.
      const retried = await enable(dev, { slug: 'during-update', terms_version: '2099-03-02' });
      expect(retried.status, retried.text).to.equal(201);
      const accepted = await db()('arcade_terms_acceptances').where({ account_id: dev.account.id });
      const shown = await db()('arcade_terms').where({ version: '2099-03-02' }).first();
      expect(
        accepted.map((row: { version: string; text_sha256: string }) => [row.version, row.text_sha256]),
      ).to.deep.equal([['2099-03-02', shown.text_sha256]]);
    });

    it('refuses to record the served version once newer terms are current, and spends no acceptance', async () => {
      const dev = await developer();
      const served = await currentTermsVersion();
      const res = await duringPublication('2099-04-01', () =>
        dev.site.post('/api/v1/account/arcade/terms', { terms_version: served }),
      );
      expect(refusal(res)).to.deep.equal([403, 'terms_required']);
      expect(await db()('arcade_terms_acceptances').where({ account_id: dev.account.id })).to.have.length(0);
      const used = await db()('rate_limits')
        .where({ key: `attempt:arcade-terms:${dev.account.id}` })
        .first('points');
      expect(used?.points ?? 0).to.equal(0);
      const now = await dev.site.post('/api/v1/account/arcade/terms', { terms_version: '2099-04-01' });
      expect(now.body).to.deep.equal({ data: { terms: { current: '2099-04-01', accepted: '2099-04-01' } } });
    });
  });

  it('puts the arcade summary in app answers and refuses to delete an app whose game is not removed', async () => {
    const dev = await developer();
    await enabledGame(dev, 'summary-game');
    const listed = (await dev.site.get('/api/v1/account/apps')).body.data[0];
    expect(listed.arcade).to.deep.equal({
      slug: 'summary-game',
      status: 'draft',
      hidden_reason: null,
      notice: null,
      live_release_number: null,
      listing: { approved: false, pending: false, draft: false, rejected: false },
      releases: { draft: 0, pending: 0, ready: 0, rejected_latest: false },
      data_events: { pending: 0, held: 0, failed: 0 },
    });
    const refused = await dev.site.delete(`/api/v1/account/apps/${dev.app.id}`);
    expect(refusal(refused)).to.deep.equal([409, 'remove_from_arcade_first']);
  });
});
