// Node's HTTP parser refuses some requests before Koa sees them: headers past its size limit (431), a chunk
// extension past its limit (413), a request whose headers arrive too slowly (408), a request it cannot parse
// (400). Node's own answer has an empty body; this one carries the API's error shape (code
// `invalid_request`, whatever the status), so a client reads every refusal the same way.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { invalidRequest } from '../shared/platform/errors.js';

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
        message: `The request line and headers are larger than the server reads (${http.maxHeaderSize / 1024} KB): shorten the query.`,
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, reason: 'too_large', message: 'A chunk extension of the body is too large.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, reason: 'request_timeout', message: 'The request did not arrive in time.' };
    default:
      return { status: 400, reason: 'malformed_request', message: 'The request is not valid HTTP/1.1.' };
  }
}

/** Answers the parser's refusals with `{ error: { code, message, reason } }` instead of an empty body. */
export function answerClientErrors(server: http.Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // As Node's own handler: no answer on a reset, or once an answer to this socket has begun.
    const answering = (socket as { _httpMessage?: { _headerSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || answering?._headerSent) {
      socket.destroy();
      return;
    }
    const { status, reason, message } = refusalOf(error);
    const body = JSON.stringify(invalidRequest(message, { reason }).body());
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Cache-Control: no-store\r\n' +
        `X-Request-Id: ${randomUUID()}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
