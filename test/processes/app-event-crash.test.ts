// Events for integrations survive their worker: an event committed while no worker runs is queued by the
// next worker's dispatcher when it starts, and a worker process killed in the middle of a delivery leaves
// the event pending (only leased while in flight), not lost: once the lease has passed, the sweep queues it
// again and the next worker delivers it. The receiver may so get it twice, with the same jti (at least once).
import { expect } from 'chai';
import type { ServerResponse } from 'node:http';
import { config } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import { sweepAppEvents } from '../../shared/events/event-delivery.js';
import { ensureSigningKeys } from '../../shared/identity/signing-keys.js';
import { subscribedPerson } from '../helpers/app-event-types.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { startEventReceiver, type EventReceiver } from '../helpers/event-receiver.js';
import type { FakeHandler } from '../helpers/fake-host.js';
import * as people from '../helpers/people.js';
import { runEntry } from '../helpers/processes.js';
import { useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

describe('events for integrations survive a worker killed mid-delivery', function () {
  this.timeout(90000);
  useCleanDatabase();
  const app = useTestApp();
  let receiver: EventReceiver;

  before(async () => {
    await ensureSigningKeys(db(), config().secret);
    receiver = await startEventReceiver(app.client.baseUrl);
  });
  after(() => receiver.close());

  const worker = () =>
    runEntry('workers/index.ts', {
      DATABASE_URL: process.env.DATABASE_URL,
      SECRET: process.env.SECRET,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      OUTBOUND_TEST_HOSTS: process.env.OUTBOUND_TEST_HOSTS,
      OUTBOUND_TEST_CA_FILE: process.env.OUTBOUND_TEST_CA_FILE,
    });
  const row = (id: string) => db()('app_events').where({ id }).first();

  it('queues at start what committed with no worker, and delivers again what a killed worker had in flight', async () => {
    const who = await subscribedPerson(
      app.client,
      receiver,
      'crash_owner',
      ['library.read', 'library.write'],
      ['library.entry.saved'],
    );
    const save = async (name: string) => {
      const game = await people.catalogGame({ name });
      const put = await who.site.put(`/api/v1/library/${game.id}`, { status: 'PLAYING' });
      expect(put.status, put.text).to.be.oneOf([200, 201]);
      return (
        (await db()('app_events')
          .where({ app_id: who.appId, subject: String(game.id) })
          .first('id')) as { id: string }
      ).id;
    };

    // No worker runs: the event is written with its change and waits, no job carrying it.
    const early = await save('Baba Is You');
    expect(await row(early)).to.deep.include({ status: 'pending', queued: false, attempts: 0 });

    const first = worker();
    let late: string;
    try {
      await first.waitForLine(/"msg":"worker ready"/);
      // The starting worker's dispatcher found it.
      await until(async () => (await row(early)).status === 'delivered', 20000).catch((error) => {
        throw new Error(`${error}: ${first.lines.join('\n')}`);
      });
      expect(receiver.received.map((event) => event.claims.jti)).to.deep.equal([early]);

      // The receiver takes the next event (verified, kept) and never answers: the worker dies waiting.
      const verify = receiver.host.routes['/events'] as FakeHandler;
      receiver.host.routes['/events'] = (request, response, body) => verify(request, holdAnswer(response), body);
      late = await save('Return of the Obra Dinn');
      await until(async () => receiver.received.length === 2, 20000).catch((error) => {
        throw new Error(`${error}: ${first.lines.join('\n')}`);
      });
      first.child.kill('SIGKILL');
      await first.exited;
      receiver.host.routes['/events'] = verify;
    } finally {
      await first.stop();
    }
    // Not lost, not settled: pending, leased by the dead attempt, with no attempt written.
    const orphan = await row(late);
    expect([orphan.status, orphan.attempts]).to.deep.equal(['pending', 0]);
    expect(orphan.leased_until).to.be.an.instanceOf(Date);
    expect(await db()('app_event_attempts').where({ event_id: late })).to.have.length(0);

    // Two minutes pass: the lease and its due time are long gone; the sweep queues it again.
    await db()('app_events')
      .where({ id: late })
      .update({ next_attempt_at: new Date(Date.now() - 120_000), leased_until: new Date(Date.now() - 100_000) });
    expect(await sweepAppEvents(db())).to.deep.include({ requeued: 1 });
    const second = worker();
    try {
      await second.waitForLine(/"msg":"worker ready"/);
      await until(async () => (await row(late)).status === 'delivered', 20000).catch((error) => {
        throw new Error(`${error}: ${second.lines.join('\n')}`);
      });
    } finally {
      second.child.kill('SIGTERM');
      await second.stop();
    }
    // At least once: the killed attempt's request and the delivering one, the same event each time.
    const jtis = receiver.received.map((event) => event.claims.jti);
    expect(jtis).to.deep.equal([early, late, late]);
    expect(receiver.received[1].headers.id).to.equal(late);
    // The same event: only its time of signing differs.
    const { iat: _sent, ...killed } = receiver.received[1].claims;
    const { iat: _again, ...delivered } = receiver.received[2].claims;
    expect(delivered).to.deep.equal(killed);
    expect(receiver.refused).to.equal(0);
    const logged = await db()('app_event_attempts').where({ event_id: late });
    expect(
      logged.map((a) => a.outcome),
      JSON.stringify({ event: await row(late), all: await db()('app_event_attempts') }),
    ).to.deep.equal(['delivered']);
    const shown = await who.site.get(`/api/v1/account/apps/${who.appId}`);
    expect(shown.body.data.events).to.deep.include({ state: 'active', pending: 0, failed: 0 });
  });
});

/** A response whose answer is never sent (the receiver keeps what it verified, then hangs). */
function holdAnswer(response: ServerResponse): ServerResponse {
  const silent = { end: () => silent };
  return new Proxy(response, {
    get: (target, key) => (key === 'writeHead' ? () => silent : Reflect.get(target, key, target)),
  });
}
