// A worker process killed in the middle of a data event's delivery leaves the event pending, not lost: the
// event is marked only after an attempt ends (it is only leased while in flight), and the sweeper queues
// it again for the next worker once the lease has passed.
import { expect } from 'chai';
import { config } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import { sweepDataEvents } from '../../shared/arcade/delivery.js';
import { ensureSigningKeys } from '../../shared/identity/signing-keys.js';
import { arcadeDeveloper, enabledGame, liveRelease } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { signedInClient } from '../helpers/factories.js';
import { startFakeHost, type FakeHost } from '../helpers/fake-host.js';
import { runEntry } from '../helpers/processes.js';
import { useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

describe('data events survive a worker killed mid-delivery', function () {
  this.timeout(90000);
  useCleanDatabase();
  const app = useTestApp();
  let server: FakeHost;

  before(async () => {
    await ensureSigningKeys(db(), config().secret);
    server = await startFakeHost();
  });
  after(() => server.close());

  const worker = () =>
    runEntry('workers/index.ts', {
      DATABASE_URL: process.env.DATABASE_URL,
      SECRET: process.env.SECRET,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      OUTBOUND_TEST_HOSTS: process.env.OUTBOUND_TEST_HOSTS,
      OUTBOUND_TEST_CA_FILE: process.env.OUTBOUND_TEST_CA_FILE,
    });

  it('keeps the event pending when the worker dies, and the next worker delivers it', async () => {
    let arrived = 0;
    server.routes['/events'] = () => {
      arrived += 1; // and never answers: the worker is killed while it waits
    };
    const dev = await arcadeDeveloper(app.client);
    await enabledGame(dev, 'crash-game');
    await liveRelease(dev.app.id, server.origin, { scopes: ['identify'], data_events_url: server.url('/events') });
    const player = await signedInClient(app.client);
    await player.site.post('/api/v1/account/arcade/grants', { app_id: dev.app.id, nickname: 'Crash' });

    const first = worker();
    try {
      await first.waitForLine(/"msg":"worker ready"/);
      await player.site.delete(`/api/v1/account/arcade/grants/${dev.app.id}`);
      await until(async () => arrived > 0, 20000).catch((error) => {
        throw new Error(`${error}: ${first.lines.join('\n')}`);
      });
      first.child.kill('SIGKILL');
      await first.exited;
    } finally {
      await first.stop();
    }
    const event = await db()('arcade_data_events').where({ app_id: dev.app.id }).first();
    expect([event.status, event.attempts]).to.deep.equal(['pending', 0]);

    // The game server is back; the sweeper finds the event overdue and the next worker delivers it.
    server.routes['/events'] = { status: 204 };
    // Two minutes pass: the attempt's lease and its due time are long gone.
    await db()('arcade_data_events')
      .where({ id: event.id })
      .update({ next_attempt_at: new Date(Date.now() - 120_000), leased_until: new Date(Date.now() - 100_000) });
    expect(await sweepDataEvents(db())).to.equal(1);
    const second = worker();
    try {
      await second.waitForLine(/"msg":"worker ready"/);
      await until(
        async () => (await db()('arcade_data_events').where({ id: event.id }).first()).status === 'delivered',
        20000,
      );
    } finally {
      second.child.kill('SIGTERM');
      await second.stop();
    }
  });
});
