// GET /metrics: not served without a configured token, refused without the right one, and in Prometheus'
// format with requests by route pattern and status, queue depths, failed jobs, the database pool and the
// catalog copy.
import { expect } from 'chai';
import { readCatalogCopy } from '../../shared/catalog/copy-browse.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { useTestApp } from '../helpers/test-app.js';

describe('GET /metrics', () => {
  useCleanDatabase();
  const plain = useTestApp();
  const app = useTestApp({ metricsToken: 'scrape-token-123' });
  const scrape = (token?: string) =>
    app.client.get('/metrics', token ? { headers: { authorization: `Bearer ${token}` } } : {});

  it('is not served while no token is configured', async () => {
    const res = await plain.client.get('/metrics', { headers: { authorization: 'Bearer scrape-token-123' } });
    expect([res.status, res.body.error.code]).to.deep.equal([404, 'not_found']);
  });

  it('asks for the configured token', async () => {
    expect((await scrape()).status).to.equal(401);
    expect((await scrape('scrape-token-124')).status).to.equal(401);
    expect((await scrape('scrape-token-123')).status).to.equal(200);
  });

  it('counts requests by route pattern and status, and reports queues and the pool', async () => {
    await app.client.get('/api/v1/games?page=1');
    await app.client.get('/api/v1/games?page=0');
    await app.client.get('/api/v1/profiles/nobody_at_all');
    const res = await scrape('scrape-token-123');
    expect(res.headers.get('content-type')).to.match(/^text\/plain/);
    const text = res.text;
    expect(text).to.include('jogatina_http_requests_total{method="GET",route="/api/v1/games",status="200"} 1');
    expect(text).to.include('jogatina_http_requests_total{method="GET",route="/api/v1/games",status="400"} 1');
    // The pattern, not the name: one series however many people are looked up.
    expect(text).to.include('route="/api/v1/profiles/:username",status="404"');
    expect(text).to.not.include('nobody_at_all');
    expect(text).to.match(
      /jogatina_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api\/v1\/games"/,
    );
    expect(text).to.match(/jogatina_queue_failed_jobs\{queue="email.send"\} \d+/);
    expect(text).to.match(/jogatina_db_pool_connections\{state="used"\} \d+/);
    expect(text).to.include('# TYPE jogatina_queue_waiting_jobs gauge');
  });

  it('reports the games and the version of the catalog copy the process browses', async () => {
    await db()('games').insert([
      { slug: 'gauge-1', name: 'Gauge 1', igdb_id: 910001 },
      { slug: 'gauge-2', name: 'Gauge 2', igdb_id: 910002 },
    ]);
    const { version } = await db()('catalog_state').first('version');
    await readCatalogCopy(db());
    const text = (await scrape('scrape-token-123')).text;
    expect(text).to.include('jogatina_catalog_copy_games 2');
    expect(text).to.include(`jogatina_catalog_copy_version ${version}`);
  });
});
