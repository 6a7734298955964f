// The guard's kept connections (guardedFetch `keepAlive`, pinned-client.ts keptReceiver), as data events
// use them: one receiver's requests share a few verified connections, every request is still checked, and
// an address that changes gets connections of its own. Real https servers on loopback, through the door.
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { expect } from 'chai';
import { guardedFetch } from '../../shared/platform/net/guarded-fetch.js';
import { OutboundRefused } from '../../shared/platform/net/outbound-refused.js';
import { closePooledClients, CONNECTIONS_PER_RECEIVER } from '../../shared/platform/net/pinned-client.js';
import { enterDoor, startFakeHost, type FakeHost } from '../helpers/fake-host.js';
import { testCertificates } from '../helpers/test-ca.js';

describe('guardedFetch with kept connections', () => {
  let hosts: FakeHost[] = [];
  const host = async () => {
    const started = await startFakeHost({ routes: { '/events': { status: 204 } } });
    hosts.push(started);
    return started;
  };
  const post = (url: string, options = {}) =>
    guardedFetch(url, { method: 'POST', body: 'token', keepAlive: true, followRedirects: false, ...options });

  afterEach(async () => {
    await closePooledClients();
    await Promise.all(hosts.map((started) => started.close()));
    hosts = [];
  });

  it('sends one receiver 20 requests in turn over the connections it keeps', async () => {
    const receiver = await host();
    for (let i = 0; i < 20; i += 1) expect((await post(receiver.url('/events'))).status).to.equal(204);
    expect(receiver.requests).to.have.length(20);
    // The pool may take the next request before it has the last one's connection back, and open a second.
    expect(receiver.connections()).to.be.within(1, 2);
  });

  it('opens a connection per request without keepAlive, as URL checks want', async () => {
    const receiver = await host();
    for (let i = 0; i < 3; i += 1) await post(receiver.url('/events'), { keepAlive: false });
    expect(receiver.connections()).to.equal(3);
  });

  it('runs at most CONNECTIONS_PER_RECEIVER requests to one receiver at once, and answers all of them', async () => {
    const receiver = await host();
    let open = 0;
    let most = 0;
    receiver.routes['/events'] = (_request, response) => {
      most = Math.max(most, (open += 1));
      setTimeout(() => {
        open -= 1;
        response.writeHead(204).end();
      }, 20);
    };
    const answers = await Promise.all(Array.from({ length: 40 }, () => post(receiver.url('/events'))));
    expect(answers.map((answer) => answer.status)).to.deep.equal(Array(40).fill(204));
    expect(most).to.equal(CONNECTIONS_PER_RECEIVER);
    expect(receiver.connections()).to.equal(CONNECTIONS_PER_RECEIVER);
  });

  it('ends each request at its deadline, even waiting on a server that never completes TLS', async () => {
    // Accepts TCP and says nothing: undici would see no abort until a connection of its own timed out.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const name = 'silent-kept.jogatina.test';
    const leave = enterDoor(
      name,
      `127.0.0.1:${(silent.address() as AddressInfo).port}`,
      (await testCertificates()).caFile,
    );
    try {
      // More requests than the receiver has connections: the ones waiting for a turn end at the deadline too.
      const timed = await Promise.all(
        Array.from({ length: 3 * CONNECTIONS_PER_RECEIVER }, async () => {
          const started = Date.now();
          const error = await post(`https://${name}/events`, { timeoutMs: 400 }).then(
            () => null,
            (refused: unknown) => refused,
          );
          return { error, ms: Date.now() - started };
        }),
      );
      for (const { error, ms } of timed) {
        expect((error as OutboundRefused).reason).to.equal('timeout');
        expect(ms).to.be.within(380, 650);
      }
      // The waiting requests never reached the server: no more connections than a receiver keeps.
      expect(sockets.length).to.be.at.most(CONNECTIONS_PER_RECEIVER);
    } finally {
      leave();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('follows a name to its new address with new connections, leaving the old ones', async () => {
    const [first, second] = [await host(), await host()];
    await post(first.url('/events'));
    // The name now answers with the second server's address: the next request is checked and goes there.
    const leave = enterDoor(first.name, `127.0.0.1:${second.port}`, (await testCertificates()).caFile);
    try {
      await post(first.url('/events'));
      expect(first.requests).to.have.length(1);
      expect(second.requests).to.have.length(1);
      expect(second.connections()).to.equal(1);
    } finally {
      leave();
    }
  });

  it('checks every request: a kept connection does not let a name that now resolves privately through', async () => {
    const receiver = await host();
    await post(receiver.url('/events'));
    let refused: unknown;
    try {
      await post(receiver.url('/events'), { resolve: async () => ['10.0.0.7'] });
    } catch (error) {
      refused = error;
    }
    expect(refused).to.be.instanceOf(OutboundRefused);
    expect((refused as OutboundRefused).reason).to.equal('address_denied');
    expect(receiver.requests).to.have.length(1);
  });
});
