// What the observer (test/helpers/openapi-observer.ts) cannot read as it is answered, checked here: the
// export is a stream, so one is downloaded and held to its schema in the closed world; and the Arcade bodies
// validate() now reads keep the spec's refusals (400 `fields_invalid` naming the field, or the member's own
// answer), in the order the routes judged them before.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { arcadeDeveloper, currentTermsVersion, enabledGame, listingBody } from '../helpers/arcade.js';
import { appWithKey, signedInClient } from '../helpers/factories.js';
import { answerValidators, describeErrors, type OpenApiDocument } from '../helpers/openapi-check.js';
import { NOT_READ_HERE } from '../helpers/openapi-observer.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import type { TestResponse } from '../helpers/http-client.js';

const refusal = (res: TestResponse) => [res.status, res.body.error?.reason, res.body.error?.field];

describe('answers the observer cannot read, and Arcade’s bodies', () => {
  let app: TestApp;
  let validatorOf: ReturnType<typeof answerValidators>;

  before(async () => {
    app = await startTestApp();
    const response = await app.client.get('/api/v1/openapi.json');
    validatorOf = answerValidators(response.body as OpenApiDocument);
  });
  after(() => app.close());

  it('exempts only the export and the play stream from the observer, each with its reason', () => {
    expect(Object.keys(NOT_READ_HERE).sort()).to.deep.equal([
      'GET /api/v1/account/export',
      'GET /api/v1/arcade/instances/{iid}/stream',
    ]);
  });

  it('streams an export that validates against its schema, every table and column named', async () => {
    const { site, account } = await signedInClient(app.client);
    await site.put('/api/v1/account/username', { username: 'schema_export' });
    await site.put('/api/v1/account/birth-date', { birth_date: '1990-02-28' });
    await appWithKey(account.id, ['profile.read']);
    await db()('connections').insert({ account_id: account.id, service: 'steam', external_id: '7656' });
    await db()('infractions').insert({ account_id: account.id, reason: 'Aviso', details: 'Leia as regras' });
    const res = await site.get('/api/v1/account/export');
    expect(res.status).to.equal(200);
    const validate = validatorOf('GET', '/api/v1/account/export', 200)!;
    const body = JSON.parse(res.text);
    expect(validate(body), describeErrors(validate.errors)).to.equal(true);
    expect(body.data.account).to.include({ username: 'schema_export', birth_date: '1990-02-28' });
    expect(body.data.apps).to.have.length(1);
  });

  describe('Arcade bodies', () => {
    it('names an unknown field first, and a body that is not an object as `body`', async () => {
      const dev = await arcadeDeveloper(app.client);
      const terms = await currentTermsVersion();
      const enable = (body: unknown) => dev.site.post(`/api/v1/account/apps/${dev.app.id}/arcade`, body);
      expect(refusal(await enable({ slug: 'x', extra: 1, terms_version: terms }))).to.deep.equal([
        400,
        'fields_invalid',
        'extra',
      ]);
      expect(refusal(await enable([1, 2]))).to.deep.equal([400, 'fields_invalid', 'body']);
      expect(refusal(await enable(undefined))).to.deep.equal([400, 'fields_invalid', 'body']);
      // A member the spec gives its own answer keeps it.
      expect(refusal(await enable({ slug: 7, terms_version: terms }))).to.deep.equal([400, 'slug_invalid', 'slug']);
      expect(refusal(await enable({ slug: 'fine-slug', terms_version: 3 }))).to.deep.equal([
        403,
        'terms_required',
        'terms_version',
      ]);
      const terms2 = await dev.site.post('/api/v1/account/arcade/terms', { terms_version: 2026 });
      expect(refusal(terms2)).to.deep.equal([400, 'fields_invalid', 'terms_version']);
    });

    it('keeps each grant member’s own answer', async () => {
      const player = await signedInClient(app.client);
      const grants = '/api/v1/account/arcade/grants';
      const id = '0b7e4c2a-91d5-4f3e-8a6b-c2d9e1f07a54';
      expect(refusal(await player.site.post(grants, { app_id: 5, nickname: 'Zoë' }))).to.deep.equal([
        404,
        'app_not_found',
        undefined,
      ]);
      expect(refusal(await player.site.post(grants, { app_id: id }))).to.deep.equal([
        400,
        'nickname_invalid',
        'nickname',
      ]);
      expect(refusal(await player.site.post(grants, { app_id: id, nickname: 'Zoë', x: 1 }))).to.deep.equal([
        400,
        'fields_invalid',
        'x',
      ]);
      expect(refusal(await player.site.patch(`${grants}/${id}`, { nickname: ['Zoë'] }))).to.deep.equal([
        400,
        'nickname_invalid',
        'nickname',
      ]);
    });

    it('judges the store page in the table’s order, and the development URL before its release', async () => {
      const dev = await arcadeDeveloper(app.client);
      await enabledGame(dev, 'judged-bodies');
      const base = `/api/v1/account/apps/${dev.app.id}/arcade`;
      const listing = (body: Record<string, unknown>) => dev.site.put(`${base}/listing`, body);
      expect(refusal(await listing({ ...listingBody(), tags: ['arcade', 'nope'], name: 5 }))).to.deep.equal([
        400,
        'fields_invalid',
        'name',
      ]);
      expect(refusal(await listing({ ...listingBody(), tags: ['arcade', 'nope'] }))).to.deep.equal([
        400,
        'fields_invalid',
        'tags.1',
      ]);
      // A field outside the table is named once the table passes.
      expect(refusal(await listing({ ...listingBody(), extra: 1, platforms: [] }))).to.deep.equal([
        400,
        'fields_invalid',
        'platforms',
      ]);
      expect(refusal(await listing({ ...listingBody(), extra: 1 }))).to.deep.equal([400, 'fields_invalid', 'extra']);
      const override = (body: Record<string, unknown>) => dev.site.put(`${base}/override`, body);
      expect(refusal(await override({ url: 'ftp://localhost/', release_id: 5 }))).to.deep.equal([
        400,
        'url_invalid',
        'url',
      ]);
      expect(refusal(await override({ url: 'http://localhost:5173/', release_id: 5 }))).to.deep.equal([
        400,
        'fields_invalid',
        'release_id',
      ]);
    });
  });
});
