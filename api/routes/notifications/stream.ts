// GET /notifications/stream (DECISIONS: Notifications): server-sent events of the caller's new notifications,
// within 2 seconds of their commit on any web process. `ready` first with the unread count; then each
// notification as GET /notifications shows it, its `id:` the notification's `seq`, so a reconnecting
// EventSource sends `Last-Event-ID` and gets everything after it, nothing twice. The process's hub
// (shared/notifications/stream-hub.ts) does the reading.
//
// A client that does not read costs a bounded buffer: a stream holding more than STREAM_BUFFER_CAP bytes unsent
// when a page of notifications (or a keep-alive) comes is cut, and the client's reconnect resumes from the
// last event it read. So a stream holds at most the cap and one page.
import { PassThrough } from 'node:stream';
import { streamStart } from '../../../shared/notifications/load-notifications.js';
import { NotificationHub, type StreamSink } from '../../../shared/notifications/stream-hub.js';
import { invalidRequest } from '../../../shared/platform/errors.js';
import type { JobReplies } from '../../../shared/platform/jobs/request-reply.js';
import type { AppContext } from '../../context.js';
import { sessionCaller } from '../../middleware/access.js';
import { answerEventStream } from '../../event-stream.js';

/** Comment lines that keep proxies from closing an idle stream (and find dead clients: their buffer fills). */
export const KEEP_ALIVE_MS = 20_000;
/** Bytes a stream may hold unsent (here and in the socket) when the next page or keep-alive comes. */
export const STREAM_BUFFER_CAP = 64 * 1024;
/** How long a page waits for a stream to send what it holds before the next page is written anyway. */
const DRAIN_WAIT_MS = 2000;
const DRAIN_POLL_MS = 20;

const hubs = new WeakMap<JobReplies, NotificationHub>();

function hubOf(ctx: AppContext): NotificationHub {
  const { replies, knex, media, log } = ctx.services;
  let hub = hubs.get(replies);
  if (!hub) hubs.set(replies, (hub = new NotificationHub(replies.signals, knex, (key) => media.url(key), log)));
  return hub;
}

/** `Last-Event-ID`: an event id this stream gave (a seq), or none. */
function lastEventId(ctx: AppContext): number | null {
  const given = ctx.get('Last-Event-ID').trim();
  if (given === '') return null;
  if (!/^\d{1,15}$/.test(given)) {
    throw invalidRequest('Last-Event-ID must be the id of an event this stream sent.', {
      field: 'Last-Event-ID',
      reason: 'bad_format',
    });
  }
  return Number(given);
}

export async function openNotificationStream(ctx: AppContext): Promise<void> {
  const accountId = sessionCaller(ctx).account.id;
  const resumeAfter = lastEventId(ctx);
  const start = await streamStart(ctx.services.knex, accountId);

  const stream = new PassThrough();
  const res = ctx.res;
  // What waits to be sent: in the stream, and in the response and its socket (OutgoingMessage counts both).
  const buffered = () => stream.writableLength + stream.readableLength + res.writableLength;
  let closed = false;
  let unsubscribe: (() => void) | null = null;
  let keepAlive: NodeJS.Timeout | null = null;
  function finish() {
    if (closed) return;
    closed = true;
    if (keepAlive) clearInterval(keepAlive);
    unsubscribe?.();
  }
  /** Whether the stream may be written to: not while it holds more than its cap unsent, when it is cut. */
  const takes = (): boolean => {
    if (closed) return false;
    if (buffered() <= STREAM_BUFFER_CAP) return true;
    finish();
    // Destroying the body ends the response and its connection: what it held goes with them.
    stream.destroy();
    return false;
  };
  const write = (text: string) => {
    if (!closed) stream.write(text);
  };
  const drained = async () => {
    const deadline = Date.now() + DRAIN_WAIT_MS;
    while (!closed && buffered() > STREAM_BUFFER_CAP / 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, DRAIN_POLL_MS));
    }
  };
  // A resume past everything there is (rows removed since, or an id from elsewhere) starts from now.
  const sink: StreamSink = {
    sent: resumeAfter === null ? start.seq : Math.min(resumeAfter, start.seq),
    takesPage: takes,
    write,
    drained,
  };
  write(`event: ready\ndata: ${JSON.stringify({ unread: start.unread })}\n\n`);

  res.once('close', finish);
  stream.once('close', finish);
  let removal: () => void;
  try {
    removal = await hubOf(ctx).subscribe(accountId, sink);
  } catch (error) {
    finish();
    stream.destroy();
    throw error;
  }
  // A client gone during the awaits above closed before these listeners heard it, and Koa sends nothing
  // to a closed socket: nothing would ever end this stream.
  if (!ctx.response.writable) {
    finish();
    stream.destroy();
  }
  // Closed meanwhile (the hub's first page may have cut it): nothing will call the removal later.
  if (closed) removal();
  else {
    unsubscribe = removal;
    keepAlive = setInterval(() => takes() && write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    keepAlive.unref();
  }

  answerEventStream(ctx, stream);
}
