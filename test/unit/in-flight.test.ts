// A stop waits for handlers, not only for connections (api/in-flight.ts): a client that hangs up while its
// handler still works leaves no connection behind, and the stop must not close the database under it.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { expect } from 'chai';
import { closeServer } from '../../api/close-server.js';
import { InFlight } from '../../api/in-flight.js';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

async function serverWith(handler: (request: IncomingMessage, response: ServerResponse) => Promise<void>) {
  const requests = new InFlight();
  const server = http.createServer(requests.track(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { requests, server, port: (server.address() as AddressInfo).port };
}

/** Sends a request and hangs up once the handler has it. */
async function requestAndHangUp(port: number, started: Promise<void>): Promise<void> {
  const socket = net.connect(port, '127.0.0.1');
  socket.write('GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  await started;
  socket.destroy();
}

describe('requests in flight at a stop', () => {
  it('waits for a handler whose client hung up, after the connections are gone', async () => {
    const started = gate();
    const release = gate();
    let finished = false;
    const { requests, server, port } = await serverWith(async (_request, response) => {
      started.open();
      await release.opened;
      finished = true;
      response.end('done');
    });
    await requestAndHangUp(port, started.opened);
    await closeServer(server, 1000, { drain: true });
    expect(requests.count, 'the handler still runs with no connection left').to.equal(1);
    const idle = requests.idle(5000);
    setTimeout(release.open, 100);
    expect(await idle).to.equal(true);
    expect(finished).to.equal(true);
    expect(requests.count).to.equal(0);
  });

  it('gives up at the deadline, saying a handler still runs', async () => {
    const started = gate();
    const release = gate();
    const { requests, server, port } = await serverWith(async (_request, response) => {
      started.open();
      await release.opened;
      response.end();
    });
    await requestAndHangUp(port, started.opened);
    await closeServer(server, 1000, { drain: true });
    const began = Date.now();
    expect(await requests.idle(150)).to.equal(false);
    expect(Date.now() - began).to.be.within(100, 1000);
    expect(requests.count).to.equal(1);
    release.open();
    expect(await requests.idle(1000)).to.equal(true);
  });

  it('is idle at once with nothing running, and counts a handler that throws as ended', async () => {
    const { requests, server, port } = await serverWith(async (_request, response) => {
      response.end();
      throw new Error('after the answer');
    });
    expect(await requests.idle(0)).to.equal(true);
    await new Promise<void>((resolve) =>
      http.get(`http://127.0.0.1:${port}/`, (res) => res.resume().on('end', resolve)),
    );
    expect(await requests.idle(1000)).to.equal(true);
    await closeServer(server, 1000);
  });
});
