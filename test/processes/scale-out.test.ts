// Scale-out, shown (issue 27, item 5): two web and two worker processes on one PostgreSQL through Debian's
// PgBouncer in session mode. A key's allowance and the sign-in attempt limit hold across the web
// processes; uploads through either web process are answered, whichever worker encodes them; a data event
// is delivered; and the play stream opened on one web process hears a revoke made on the other.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import { ensureSigningKeys } from '../../shared/identity/signing-keys.js';
import { createApp } from '../../shared/keys/apps.js';
import { config } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import { arcadeDeveloper, enabledGame, liveRelease, seededGame } from '../helpers/arcade.js';
import { uploadCapture } from '../helpers/captures.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { openEventStream } from '../helpers/event-stream.js';
import { appWithKey, buildAccount, PASSWORD, signedInClient } from '../helpers/factories.js';
import { startFakeHost, type FakeHost } from '../helpers/fake-host.js';
import { TestClient } from '../helpers/http-client.js';
import { catalogGame } from '../helpers/people.js';
import { pgbouncerOrReason, startPgBouncer, type Bouncer } from '../helpers/pgbouncer.js';
import { processEnv, runEntry, type RunningProcess } from '../helpers/processes.js';
import { SiteClient } from '../helpers/site-client.js';
import { until } from '../helpers/wait.js';

const READS_PER_HOUR = 10;

describe('scale-out through PgBouncer: two web and two worker processes', function () {
  this.timeout(600_000);
  useCleanDatabase();
  let bouncer: Bouncer | null = null;
  let host: FakeHost;
  const processes: RunningProcess[] = [];
  const webs: TestClient[] = [];

  before(async function () {
    const pgbouncer = await pgbouncerOrReason();
    if ('reason' in pgbouncer) {
      console.warn(`      skipped: ${pgbouncer.reason}`);
      return this.skip();
    }
    bouncer = await startPgBouncer(pgbouncer.path, process.env.DATABASE_URL!);
    await ensureSigningKeys(db(), config().secret);
    host = await startFakeHost();
    const env = processEnv({
      DATABASE_URL: bouncer.url,
      // The tests' clients give their own addresses, as clients behind a proxy do.
      TRUST_PROXY: '1',
      ALLOWANCE_READ_PER_HOUR: String(READS_PER_HOUR),
      MEDIA_DIR: mkdtempSync(path.join(tmpdir(), 'jogatina-scale-media-')),
      IMAGE_THREADS: '1',
      OUTBOUND_TEST_HOSTS: process.env.OUTBOUND_TEST_HOSTS!,
      OUTBOUND_TEST_CA_FILE: process.env.OUTBOUND_TEST_CA_FILE!,
    });
    for (let i = 0; i < 2; i += 1) {
      const web = runEntry('api/server.ts', env);
      processes.push(web);
      const { port } = JSON.parse(await web.waitForLine(/"msg":"listening"/, 60_000)) as { port: number };
      webs.push(new TestClient(`http://127.0.0.1:${port}`));
      const worker = runEntry('workers/index.ts', env);
      processes.push(worker);
      await worker.waitForLine(/"msg":"worker ready"/, 60_000);
    }
  });
  after(async () => {
    for (const running of processes) await running.stop();
    await host?.close();
    await bouncer?.close();
  });

  it('gives sessions through the pooler the database’s own settings (JIT off, which a startup option cannot carry)', async () => {
    const client = new pg.Client({ connectionString: bouncer!.url });
    await client.connect();
    try {
      expect((await client.query('SHOW jit')).rows[0].jit).to.equal('off');
    } finally {
      await client.end();
    }
  });

  it('holds a key’s read allowance across the web processes: exactly 10 of 16 reads pass', async () => {
    const { account } = await buildAccount();
    const { token } = await appWithKey(account.id);
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        webs[i % 2].get('/api/v1/me', { headers: { authorization: `Bearer ${token}` } }),
      ),
    );
    expect(answers.filter((res) => res.status === 200)).to.have.length(READS_PER_HOUR);
    expect(answers.filter((res) => res.status === 429)).to.have.length(16 - READS_PER_HOUR);
  });

  it('holds the sign-in attempt limit across the web processes', async () => {
    const { email } = await buildAccount();
    for (let i = 0; i < 5; i += 1) {
      const wrong = await new SiteClient(webs[i % 2]).post('/api/auth/sign-in', { email, password: 'not it at all' });
      expect(wrong.status).to.equal(401);
    }
    for (const web of webs) {
      const limited = await new SiteClient(web).post('/api/auth/sign-in', { email, password: PASSWORD });
      expect([limited.status, limited.body.error.reason]).to.deep.equal([429, 'too_many_attempts']);
    }
  });

  it('answers uploads through either web process, whichever worker encodes them', async () => {
    const { account } = await buildAccount();
    const { token } = await appWithKey(account.id, ['screenshots.write']);
    const game = await catalogGame({ name: 'Scaled Out', slug: 'scaled-out' });
    const uploads = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        uploadCapture(webs[i % 2], { game_id: String(game.id) }, undefined, { authorization: `Bearer ${token}` }),
      ),
    );
    for (const upload of uploads) expect(upload.status, upload.text).to.equal(201);
  });

  it('delivers a data event, and a play stream on one web process hears a revoke made on the other', async () => {
    host.routes['/events'] = { status: 204 };
    const dev = await arcadeDeveloper(webs[0]);
    await enabledGame(dev, 'scale-game');
    await liveRelease(dev.app.id, host.origin, { scopes: ['identify'], data_events_url: host.url('/events') });
    const player = await signedInClient(webs[0]);
    await player.site.post('/api/v1/account/arcade/grants', { app_id: dev.app.id, nickname: 'Scaled' });
    await player.site.delete(`/api/v1/account/arcade/grants/${dev.app.id}`);
    await until(async () => {
      const event = await db()('arcade_data_events').where({ app_id: dev.app.id }).first();
      return event?.status === 'delivered';
    }, 60_000);

    const owner = await buildAccount();
    const made = await createApp(db(), owner.account.id, { name: 'stream' });
    await seededGame(owner.account.id, made.id, 'scale-stream', { listed: true });
    const streamer = await signedInClient(webs[0]);
    await streamer.site.post('/api/v1/account/arcade/grants', { app_id: made.id, nickname: 'Streamer' });
    const launched = await streamer.site.post('/api/v1/arcade/apps/scale-stream/launch');
    expect(launched.status, launched.text).to.equal(200);
    const onB = new SiteClient(webs[1]);
    onB.cookie = streamer.site.cookie;
    const stream = openEventStream(
      webs[1].baseUrl,
      `/api/v1/arcade/instances/${launched.body.data.instance_id}/stream`,
      onB,
    );
    try {
      expect((await stream.head).status).to.equal(200);
      await until(async () => stream.events.some((event) => event.event === 'ready'), 10_000);
      await streamer.site.delete(`/api/v1/account/arcade/grants/${made.id}`);
      await until(async () => stream.events.some((event) => event.event === 'GRANT_UPDATE'), 5_000);
      expect(stream.events.find((event) => event.event === 'GRANT_UPDATE')!.data).to.include({ granted: false });
    } finally {
      stream.close();
    }
  });
});
