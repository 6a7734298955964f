// Reads a response body, decoding gzip, deflate and brotli as it streams, and stops the moment either
// the bytes received or the bytes decoded pass the cap: a 10 KB gzip bomb that would inflate to 10 GB
// costs at most the cap in memory, and a stream of empty compressed blocks still ends at the raw cap.
import { pipeline, Transform, type Duplex, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { OutboundRefused } from './outbound-refused.js';

/** The encodings we ask for in Accept-Encoding; anything else in a response is refused. */
export const ACCEPTED_ENCODINGS = 'gzip, deflate, br';

export async function readCappedBody(
  body: Readable,
  contentEncoding: string | undefined,
  maxBytes: number,
  url: string,
): Promise<Buffer> {
  const codings = parseCodings(contentEncoding, url);
  try {
    return await readUpTo(codings.length === 0 ? body : decoded(body, codings, maxBytes, url), maxBytes, url);
  } catch (error) {
    if (isDecodeError(error)) {
      throw new OutboundRefused('decode_failed', 'The response body could not be decoded.', url, error);
    }
    throw error;
  }
}

/**
 * The body through a stage that counts the bytes received, then its decoders. Only for an encoded body: a
 * pipeline costs more than a small request (each pipeline's end aborts a controller of its own, and the
 * abort builds an error with its stack), about a tenth of a data event's CPU in the worker.
 */
function decoded(body: Readable, codings: string[], maxBytes: number, url: string): Readable {
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      if (received > maxBytes) done(tooLarge(maxBytes, url));
      else done(null, chunk);
    },
  });
  // Content-Encoding lists codings in the order applied, so they are undone last first.
  const stages: Duplex[] = [counter, ...codings.reverse().map(decoderFor)];
  return pipeline([body, ...stages], () => {
    // Errors surface through the iteration that reads it; the callback only keeps pipeline from throwing.
  }) as unknown as Readable;
}

/** Reads `stream` whole, refusing it once it passes `maxBytes` (a throw there destroys the stream). */
async function readUpTo(stream: Readable, maxBytes: number, url: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes, url);
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
}

function tooLarge(maxBytes: number, url: string): OutboundRefused {
  return new OutboundRefused('too_large', `The response is larger than ${maxBytes} bytes.`, url);
}

function parseCodings(header: string | undefined, url: string): string[] {
  const codings = (header ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  for (const coding of codings) {
    if (!['gzip', 'x-gzip', 'deflate', 'br'].includes(coding)) {
      throw new OutboundRefused('decode_failed', `The response uses an unsupported encoding (${coding}).`, url);
    }
  }
  return codings;
}

// Sync flush at the end tolerates a stream cut short the way browsers do, instead of failing the page.
function decoderFor(coding: string): Duplex {
  if (coding === 'br') {
    return zlib.createBrotliDecompress({
      flush: zlib.constants.BROTLI_OPERATION_FLUSH,
      finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
    });
  }
  const options = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  // RFC 9110's deflate is the zlib format; raw deflate streams from old servers fail as decode_failed.
  return coding === 'deflate' ? zlib.createInflate(options) : zlib.createGunzip(options);
}

function isDecodeError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(?:Z_|ERR__ERROR|ERR_BROTLI)/.test(code);
}
