// Answering with server-sent events (the play stream, the notification stream): the stream is the body, and
// neither this process's idle timeout, a cache nor a buffering proxy (nginx's X-Accel-Buffering) may hold
// or cut it.
import type { Readable } from 'node:stream';
import type { AppContext } from './context.js';

export function answerEventStream(ctx: AppContext, stream: Readable): void {
  ctx.req.socket.setTimeout(0);
  ctx.set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Accel-Buffering': 'no',
  });
  ctx.status = 200;
  ctx.body = stream;
}
