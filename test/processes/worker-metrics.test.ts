// Each worker process serves its own Prometheus metrics on WORKER_METRICS_PORT behind METRICS_TOKEN
// (issue 27, item 4): jobs by queue and outcome with their durations, queue depth and lag, and the image
// threads' use; refused without the token, and not served at all without one.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { boss } from '../../shared/platform/jobs/boss.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { processEnv, runEntry, type RunningProcess } from '../helpers/processes.js';
import { until } from '../helpers/wait.js';

const TOKEN = 'scraper-token-0123456789';

describe('the worker’s metrics', function () {
  this.timeout(120_000);
  useCleanDatabase();
  let worker: RunningProcess | null = null;
  afterEach(async () => {
    await worker?.stop();
    worker = null;
  });

  const start = async (env: Record<string, string>) => {
    worker = runEntry(
      'workers/index.ts',
      processEnv({
        IMAGE_THREADS: '1',
        MEDIA_DIR: mkdtempSync(path.join(tmpdir(), 'jogatina-worker-metrics-')),
        ...env,
      }),
    );
    return JSON.parse(await worker.waitForLine(/"msg":"worker ready"/)) as { metrics_port: number | null };
  };

  it('counts jobs by queue and outcome, and reports queue lag and the image threads', async () => {
    const { metrics_port: port } = await start({ METRICS_TOKEN: TOKEN, WORKER_METRICS_PORT: '0' });
    expect(port).to.be.a('number').and.above(0);
    const url = `http://127.0.0.1:${port}/metrics`;
    const scrape = async () => {
      const res = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/plain/);
      return res.text();
    };

    await boss().send('catalog.stats', {});
    // A release id that is not a UUID: the database refuses the lookup, the attempt throws and counts as failed.
    await boss().send('url.check', { release_id: 'not-an-id', cause: 'manual' }, { retryLimit: 0 });
    const text = await until(async () => {
      const seen = await scrape();
      return seen.includes('jogatina_jobs_total{queue="catalog.stats",outcome="completed"} 1') &&
        seen.includes('jogatina_jobs_total{queue="url.check",outcome="failed"} 1')
        ? seen
        : null;
    }, 60_000);
    expect(text).to.include('jogatina_job_duration_seconds_count{queue="catalog.stats",outcome="completed"} 1');
    expect(text).to.include('jogatina_image_pool{measure="threads"} 1');
    expect(text).to.match(/jogatina_queue_lag_seconds\{queue="image\.process"\} \d/);
    expect(text).to.match(/jogatina_queue_waiting_jobs\{queue="email\.send"\} \d/);
    expect(text).to.match(/jogatina_db_pool_connections\{state="used"\} \d/);
    expect(text).to.include('jogatina_process_resident_memory_bytes');
  });

  it('refuses a scrape without the token, and serves nothing else', async () => {
    const { metrics_port: port } = await start({ METRICS_TOKEN: TOKEN, WORKER_METRICS_PORT: '0' });
    const base = `http://127.0.0.1:${port}`;
    for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${TOKEN}`]) {
      const res = await fetch(`${base}/metrics`, { headers: authorization ? { authorization } : {} });
      expect(res.status, authorization).to.equal(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).to.equal('unauthorized');
    }
    for (const [method, where] of [
      ['GET', '/'],
      ['GET', '/health'],
      ['POST', '/metrics'],
    ]) {
      const res = await fetch(`${base}${where}`, { method, headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status, `${method} ${where}`).to.equal(404);
    }
  });

  it('serves no metrics without METRICS_TOKEN or without a port', async () => {
    expect((await start({ WORKER_METRICS_PORT: '0' })).metrics_port).to.equal(null);
    await worker!.stop();
    expect((await start({ METRICS_TOKEN: TOKEN })).metrics_port).to.equal(null);
  });
});
