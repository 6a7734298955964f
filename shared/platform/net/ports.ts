// Listening ports of this machine: whether one is free, and a free one. One probe does both: it listens
// and closes at once, so the answer holds only for that moment (a caller that loses a race retries).
import net from 'node:net';

/** Listens on `port` (0: any) and closes again: the port it got, or null when the port is taken. */
function listenProbe(port: number, host: string): Promise<number | null> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', () => resolve(null));
    probe.listen(port, host, () => {
      const { port: bound } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(bound));
    });
  });
}

/** Whether nothing listens on `host`:`port` right now. */
export async function portFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return (await listenProbe(port, host)) !== null;
}

/** A TCP port nobody listens on right now, for a throw-away server. */
export async function freePort(): Promise<number> {
  const port = await listenProbe(0, '127.0.0.1');
  if (port === null) throw new Error('no free port on 127.0.0.1');
  return port;
}
