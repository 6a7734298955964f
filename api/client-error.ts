// Node's HTTP parser refuses some requests before Koa sees them: headers past its size limit (431), a
// request it cannot parse (400), a request whose headers arrive too slowly (408). Node's own answer has an
// empty body; this one carries the API's error shape, so a client reads every refusal the same way.
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { Duplex } from 'node:stream';

interface Refusal {
  status: number;
  reason: string;
  message: string;
}

function refusalOf(error: NodeJS.ErrnoException): Refusal {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        reason: 'headers_too_large',
        message: 'The request line and headers are larger than the server reads (16 KB): shorten the query.',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, reason: 'request_timeout', message: 'The request did not arrive in time.' };
    default:
      return { status: 400, reason: 'malformed_request', message: 'The request is not valid HTTP/1.1.' };
  }
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** Answers the parser's refusals with `{ error: { code, message, reason } }` instead of an empty body. */
export function answerClientErrors(server: http.Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A reset or a socket already answered has no one to read a reply.
    if (error.code === 'ECONNRESET' || !socket.writable || (socket as { _httpMessage?: unknown })._httpMessage) {
      socket.destroy();
      return;
    }
    const { status, reason, message } = refusalOf(error);
    const body = JSON.stringify({ error: { code: 'invalid_request', message, reason } });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Cache-Control: no-store\r\n' +
        `X-Request-Id: ${randomUUID()}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
