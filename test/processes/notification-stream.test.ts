// Two web processes on one database, as a deployment scales out (DECISIONS: Notifications, "within 2
// seconds, across processes"): a follow made through process A reaches the followed person's stream open on
// process B, by the NOTIFY its commit sends, within 2 seconds; and what B streams is what GET /notifications
// shows on A.
import { expect } from 'chai';
import { buildAccount } from '../helpers/factories.js';
import { notificationStream } from '../helpers/event-stream.js';
import { TestClient } from '../helpers/http-client.js';
import { processEnv, runEntry, type RunningProcess } from '../helpers/processes.js';
import { SiteClient } from '../helpers/site-client.js';
import { until } from '../helpers/wait.js';

const webEnv = () => processEnv();

async function startWeb(): Promise<{ web: RunningProcess; base: string }> {
  const web = runEntry('api/server.ts', webEnv());
  const listening = JSON.parse(await web.waitForLine(/"msg":"listening"/, 60_000));
  return { web, base: `http://127.0.0.1:${listening.port as number}` };
}

async function signedIn(base: string, username: string): Promise<SiteClient> {
  const built = await buildAccount({ username });
  const site = new SiteClient(new TestClient(base));
  const res = await site.post('/api/auth/sign-in', { email: built.email, password: built.password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return site;
}

describe('notifications across two web processes', function () {
  this.timeout(120_000);
  const running: RunningProcess[] = [];
  after(async () => {
    await Promise.all(running.map((web) => web.stop()));
  });

  it('streams on process B a follow made through process A within 2 seconds', async () => {
    const [a, b] = await Promise.all([startWeb(), startWeb()]);
    running.push(a.web, b.web);
    const followed = await signedIn(b.base, 'np_followed');
    const follower = await signedIn(a.base, 'np_follower');

    const stream = notificationStream(b.base, followed);
    try {
      expect((await stream.head).status).to.equal(200);
      await until(async () => stream.events.length > 0);
      expect(stream.events[0]).to.deep.include({ event: 'ready', data: { unread: 0 } });

      const sent = Date.now();
      const follow = await follower.put('/api/v1/social/following/np_followed');
      expect(follow.status, follow.text).to.equal(200);
      const event = await until(async () => stream.events.find((e) => e.event === 'notification'), 2000);
      expect(Date.now() - sent).to.be.lessThan(2000);
      expect(event.data).to.deep.include({ kind: 'follow', subject: null, data: {}, read_at: null });
      expect(event.data.actor).to.include({ username: 'np_follower' });

      // What B streamed is what A lists.
      const listed = await new SiteClient(new TestClient(a.base)).request('GET', '/api/v1/notifications', {
        headers: { cookie: followed.cookie! },
      });
      expect(listed.status, listed.text).to.equal(200);
      expect(listed.body.data).to.deep.equal([event.data]);
    } finally {
      stream.close();
    }
  });

  it('ends its streams when it shuts down, so it exits long before its deadline and the client can reconnect', async () => {
    const { web, base } = await startWeb();
    running.push(web);
    const reader = await signedIn(base, 'np_shutdown');
    const stream = notificationStream(base, reader);
    expect((await stream.head).status).to.equal(200);
    await until(async () => stream.events.length > 0);
    const stopping = Date.now();
    // The shutdown's deadline is 10 s (SHUTDOWN_TIMEOUT_MS): an open stream used to hold the process that long.
    await Promise.all([web.stop(), stream.ended]);
    expect(Date.now() - stopping).to.be.lessThan(5000);
    expect((await web.exited).code).to.equal(0);
  });
});
