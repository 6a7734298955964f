// Answering with server-sent events (the play stream, the notification stream): the stream is the body, and
// neither this process's idle timeout, a cache nor a buffering proxy (nginx's X-Accel-Buffering) may hold
// or cut it. A process shutting down ends its streams first (endEventStreams): an open stream would keep
// its connection, and the process, until the shutdown's deadline; ended, its client reconnects at once
// (EventSource does, with Last-Event-ID) to a process that stays.
import type { PassThrough } from 'node:stream';
import type { AppContext } from './context.js';

const open = new Set<PassThrough>();

export function answerEventStream(ctx: AppContext, stream: PassThrough): void {
  open.add(stream);
  stream.once('close', () => open.delete(stream));
  ctx.req.socket.setTimeout(0);
  ctx.set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Accel-Buffering': 'no',
  });
  ctx.status = 200;
  ctx.body = stream;
}

/** Ends every event stream this process answers (its shutdown). */
export function endEventStreams(): void {
  for (const stream of open) stream.end();
  open.clear();
}
