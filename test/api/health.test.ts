import { expect } from 'chai';
import { createKnex } from '../../shared/platform/db/knex.js';
import { freePort } from '../../shared/platform/db/embedded.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

describe('GET /health', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  it('answers 200 with the database and the queue up', async () => {
    const res = await app.client.get('/health');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ data: { status: 'ok', database: 'ok', queue: 'ok' } });
    expect(res.headers.get('cache-control')).to.equal('no-store');
  });

  it('reports the queue degraded while it is stopped, still 200', async () => {
    const degraded = await startTestApp({ boss: () => null });
    try {
      const res = await degraded.client.get('/health');
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal({ status: 'degraded', database: 'ok', queue: 'down' });
    } finally {
      await degraded.close();
    }
  });

  it('answers 503 in the error shape when the database does not answer', async () => {
    // A port nobody listens on: every connection is refused.
    const deadKnex = createKnex(`postgres://postgres@127.0.0.1:${await freePort()}/nothing`, 2);
    const down = await startTestApp({ knex: deadKnex, boss: () => null });
    try {
      const res = await down.client.get('/health');
      expect(res.status).to.equal(503);
      expect(res.body.error).to.deep.include({ code: 'unavailable', detail: { database: 'down', queue: 'down' } });
      expect(res.body.error.message).to.be.a('string');
    } finally {
      await down.close();
      await deadKnex.destroy();
    }
  });

  it('refuses other methods with 405 and an Allow header', async () => {
    const res = await app.client.post('/health', {});
    expect(res.status).to.equal(405);
    expect(res.body.error.code).to.equal('method_not_allowed');
    expect(res.headers.get('allow')).to.include('GET');
  });
});
