// Opaque cursors for pages that continue from a position (library copies, connections). A cursor is the
// position and the sort it belongs to, signed with the server secret: a client can neither read meaning
// into it nor edit it. A cursor made for another sort means the client changed the sort: it starts over.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { invalidRequest } from '../errors.js';

const VERSION = 1;
const MAC_BYTES = 16;

type Position = Array<string | number | boolean | null>;

function mac(secret: string, payload: string): Buffer {
  return createHmac('sha256', secret).update(`cursor:${payload}`).digest().subarray(0, MAC_BYTES);
}

export function encodeCursor(secret: string, sort: string, position: Position): string {
  const payload = Buffer.from(JSON.stringify([VERSION, sort, position])).toString('base64url');
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

function refused() {
  return invalidRequest('cursor is not one this service gave out; start again without it.', {
    field: 'cursor',
    reason: 'bad_format',
  });
}

/**
 * The position a cursor holds, or null when it belongs to another sort (start from the beginning).
 * A cursor that was changed, cut short or never ours answers 400 `invalid_request` with field `cursor`.
 */
export function decodeCursor(secret: string, token: string, sort: string): Position | null {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined || token.length > 2048) throw refused();
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(secret, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw refused();
  }
  if (!Array.isArray(decoded) || decoded[0] !== VERSION || !Array.isArray(decoded[2])) throw refused();
  return decoded[1] === sort ? (decoded[2] as Position) : null;
}
