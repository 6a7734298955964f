// The reference, its paths and its webhooks, passes Spectral's `spectral:oas` ruleset (its recommended
// rules) with no error. The one warning left is a rule that predates OpenAPI 3.1: it wants every scope of a
// security requirement listed in an OAuth flow, while 3.1 lets any other scheme name roles there, which is
// how a bearer key's scope is said.
import { createRequire } from 'node:module';
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const require = createRequire(import.meta.url);
const { Spectral, Document } = require('@stoplight/spectral-core');
const Parsers = require('@stoplight/spectral-parsers');
const { oas } = require('@stoplight/spectral-rulesets');

interface Finding {
  code: string;
  message: string;
  path: Array<string | number>;
  severity: number;
}

const SEVERITY = ['error', 'warn', 'info', 'hint'];
const say = (findings: Finding[]) =>
  findings.map((f) => `${SEVERITY[f.severity]} ${f.code} ${f.path.join('.')}: ${f.message}`).slice(0, 20);

describe('the reference under Spectral (spectral:oas)', () => {
  let app: TestApp;
  let text: string;
  let findings: Finding[];
  const lint = (document: string): Promise<Finding[]> => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas, 'recommended']] });
    return spectral.run(new Document(document, Parsers.Json, 'openapi.json'));
  };

  before(async function () {
    this.timeout(60000);
    app = await startTestApp();
    const response = await app.client.get('/api/v1/openapi.json');
    expect(response.status).to.equal(200);
    text = response.text;
    findings = await lint(text);
  });
  after(() => app.close());

  it('has no error', () => {
    const errors = findings.filter((f) => f.severity === 0);
    expect(say(errors)).to.deep.equal([]);
  });

  it('warns only that a bearer key’s scopes are not OAuth scopes', () => {
    const others = findings.filter(
      (f) =>
        f.severity !== 0 &&
        !(f.code === 'oas3-operation-security-defined' && f.path.at(-2) === 'apiKey' && /among scopes/.test(f.message)),
    );
    expect(say(others)).to.deep.equal([]);
  });

  it('reads the webhooks too: a broken $ref or answer in an event is an error', async function () {
    this.timeout(60000);
    const document = JSON.parse(text);
    expect(Object.keys(document.webhooks)).to.include('review.saved');
    const event = document.webhooks['review.saved'].post;
    event.requestBody.content['application/jwt'].schema.contentSchema = { $ref: '#/components/schemas/Nowhere' };
    event.responses = {};
    const errors = (await lint(JSON.stringify(document))).filter((f) => f.severity === 0);
    const where = errors.map((f) => `${f.code} ${f.path.slice(0, 4).join('.')}`);
    expect(where).to.include('invalid-ref webhooks.review.saved.post.requestBody');
    expect(where).to.include('oas3-schema webhooks.review.saved.post.responses');
  });
});
