// The developer terms as shown (DECISIONS: Fine print; spec arcade.md: Terms, "the server records the
// accepted version with a hash of the text it shows"): GET /account/arcade/terms answers the current
// version, its text and that text's SHA-256, and accepting (or enabling) records exactly that hash. It is
// read as the eligibility is: any session of the account that does not owe its second factor.
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { publishTerms } from '../../shared/arcade/settings.js';
import { arcadeDeveloper, currentTermsVersion, enabledGame } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import { useTestApp } from '../helpers/test-app.js';

type Res = { status: number; body: { error?: { code?: string; reason?: string } } };
const refusal = (res: Res) => [res.status, res.body.error?.code, res.body.error?.reason];
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const TERMS = '/api/v1/account/arcade/terms';

describe('Arcade: the developer terms text', () => {
  useCleanDatabase();
  const app = useTestApp();

  const recorded = async (accountId: string) =>
    db()('arcade_terms_acceptances').where({ account_id: accountId }).orderBy('accepted_at').pluck('text_sha256');

  it('shows the current version and its text, and accepting records the SHA-256 of that text', async () => {
    const dev = await arcadeDeveloper(app.client);
    const shown = await dev.site.get(TERMS);
    expect(shown.status).to.equal(200);
    expect(Object.keys(shown.body.data).sort()).to.deep.equal(['sha256', 'text', 'version']);
    const { version, text, sha256: hash } = shown.body.data;
    expect(version).to.equal(await currentTermsVersion());
    expect(text)
      .to.be.a('string')
      .and.match(/developer terms/);
    expect(hash).to.equal(sha256(text));
    // Enabling accepts them, and so does accepting again: both record the hash of the text shown.
    await enabledGame(dev, 'terms-shown');
    expect((await dev.site.post(TERMS, { terms_version: version })).status).to.equal(200);
    expect(await recorded(dev.account.id)).to.deep.equal([hash, hash]);
  });

  it('answers a developer without two-factor, and refuses a key, no caller and a session owing its factor', async () => {
    const plain = await arcadeDeveloper(app.client, { twoFactor: false });
    expect((await plain.site.get(TERMS)).status).to.equal(200);
    const owing = await arcadeDeveloper(app.client, { passTwoFactor: false });
    expect(refusal(await owing.site.get(TERMS))).to.deep.equal([403, 'forbidden', 'mfa_required']);
    const { token } = await appWithKey(plain.account.id, ['profile.read']);
    const keyed = await app.client.get(TERMS, { headers: { authorization: `Bearer ${token}` } });
    expect(refusal(keyed)).to.deep.equal([403, 'forbidden', undefined]);
    expect((await app.client.get(TERMS)).status).to.equal(401);
  });

  it('shows newly published terms, whose acceptance records their own hash', async () => {
    const dev = await arcadeDeveloper(app.client);
    const text = 'Jogatina Arcade developer terms (2099-02-01)\n\n1. Termos novos: ação, coração.\n';
    await publishTerms(db(), '2099-02-01', text);
    const shown = (await dev.site.get(TERMS)).body.data;
    expect(shown).to.deep.equal({ version: '2099-02-01', text, sha256: sha256(text) });
    expect((await dev.site.post(TERMS, { terms_version: '2099-02-01' })).status).to.equal(200);
    expect(await recorded(dev.account.id)).to.deep.equal([sha256(text)]);
  });
});
