import { expect } from 'chai';
import { createKnex } from '../../shared/platform/db/knex.js';
import { freePort } from '../../shared/platform/net/ports.js';
import { migrateLatest, pendingMigrations } from '../../shared/platform/db/migrations.js';
import { createTestDatabase } from '../helpers/test-database.js';
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

describe('GET /health/ready', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  it('answers 200 when the database, the queue and the schema are all ready', async () => {
    const res = await app.client.get('/health/ready');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      data: { status: 'ready', database: 'ok', queue: 'ok', migrations: 'ok' },
    });
    expect(res.headers.get('cache-control')).to.equal('no-store');
  });

  it('answers 503 while the queue is stopped, where /health says degraded', async () => {
    const draining = await startTestApp({ boss: () => null });
    try {
      const res = await draining.client.get('/health/ready');
      expect(res.status).to.equal(503);
      expect(res.body.error).to.deep.include({
        code: 'unavailable',
        detail: { database: 'ok', queue: 'down', migrations: 'ok' },
      });
    } finally {
      await draining.close();
    }
  });

  it('answers 503 with migrations pending when the database lacks one of this build', async () => {
    const scratch = await createTestDatabase(process.env.DATABASE_URL);
    const knex = createKnex(scratch.url, 2);
    try {
      await migrateLatest(knex);
      const [newest] = await knex('knex_migrations').orderBy('id', 'desc').limit(1);
      await knex('knex_migrations').where({ id: newest.id }).delete();
      expect(await pendingMigrations(knex)).to.deep.equal([newest.name]);
      const behind = await startTestApp({ knex });
      try {
        const res = await behind.client.get('/health/ready');
        expect(res.status).to.equal(503);
        expect(res.body.error.detail).to.deep.include({ database: 'ok', migrations: 'pending' });
        // Liveness does not care: the process is up.
        expect((await behind.client.get('/health')).status).to.equal(200);
      } finally {
        await behind.close();
      }
    } finally {
      await knex.destroy();
      await scratch.drop();
    }
  });

  it('answers 503 with everything down when the database does not answer', async () => {
    const deadKnex = createKnex(`postgres://postgres@127.0.0.1:${await freePort()}/nothing`, 2);
    const down = await startTestApp({ knex: deadKnex, boss: () => null });
    try {
      const res = await down.client.get('/health/ready');
      expect(res.status).to.equal(503);
      expect(res.body.error.detail).to.deep.equal({ database: 'down', queue: 'down', migrations: 'down' });
    } finally {
      await down.close();
      await deadKnex.destroy();
    }
  });
});
