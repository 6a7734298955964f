import { expect } from 'chai';
import { chromiumOrReason, readPage } from '../helpers/chromium.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

describe('GET /docs', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  it('serves the page and its renderer from our own origin, with a policy that allows no other', async () => {
    const page = await app.client.get('/docs');
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.match(/^text\/html/);
    expect(page.headers.get('content-security-policy')).to.include("script-src 'self'");
    const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(sources).to.have.length(2);
    for (const source of sources) {
      expect(source, 'no CDN').to.match(/^\/docs\/assets\//);
      const asset = await app.client.get(source);
      expect(asset.status, source).to.equal(200);
      expect(asset.headers.get('cache-control')).to.equal('public, max-age=86400');
    }
    expect((await app.client.get('/docs/assets/../package.json')).status).to.equal(404);
    expect((await app.client.get('/docs/assets/index.html')).status).to.equal(404);
  });

  it('renders the reference in a real headless Chromium, listing the routes', async function () {
    this.timeout(600_000);
    const chromium = await chromiumOrReason();
    if ('reason' in chromium) {
      console.warn(`      skipped: ${chromium.reason}`);
      return this.skip();
    }
    // Redoc writes a section per operation once it has fetched and read the document.
    const {
      value: page,
      requested,
      blocked,
    } = await readPage<{ title: string; operations: number; text: string }>(
      chromium.path,
      `${app.client.baseUrl}/docs`,
      'document.querySelectorAll(\'[data-section-id^="operation/"]\').length > 100',
      `({
        title: document.querySelector('h1')?.textContent ?? '',
        operations: document.querySelectorAll('[data-section-id^="operation/"]').length,
        text: document.body.innerText,
      })`,
    );
    const documented = (await app.client.get('/api/v1/openapi.json')).body as {
      paths: Record<string, object>;
      webhooks: Record<string, object>;
    };
    // Redoc shows each webhook (an event for integrations) as an operation too.
    const count = [...Object.values(documented.paths), ...Object.values(documented.webhooks)].reduce(
      (n, item) => n + Object.keys(item).length,
      0,
    );
    expect(page.title).to.include('Jogatina API');
    // Redoc's footer asks a CDN for its logo: the page's policy must stop it in the browser, as it stops
    // anything else bound for another origin.
    const elsewhere = requested.filter((url) => !url.startsWith(app.client.baseUrl) && !/^(data|blob):/.test(url));
    for (const url of elsewhere) expect(blocked, url).to.include(url);
    expect(page.operations).to.equal(count);
    for (const path of [
      '/api/v1/profiles/{username}/library',
      '/api/v1/social/following/{username}',
      '/api/v1/games',
    ]) {
      expect(page.text, path).to.include(path);
    }
    for (const group of [
      'Account',
      'People',
      'Catalog',
      'Arcade for developers',
      'Moderation',
      'Events for integrations',
    ]) {
      expect(page.text, group).to.include(group);
    }
  });
});
