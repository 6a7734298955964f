import { expect } from 'chai';
import { decodeCursor, encodeCursor } from '../../shared/platform/paging/cursor.js';
import type { ApiError } from '../../shared/platform/errors.js';

const SECRET = 'k'.repeat(40);

function refusal(fn: () => unknown): Record<string, unknown> {
  try {
    fn();
  } catch (error) {
    return (error as ApiError).body().error as unknown as Record<string, unknown>;
  }
  throw new Error('expected a refusal');
}

describe('cursors', () => {
  it('carry a position back unchanged for the same sort', () => {
    const token = encodeCursor(SECRET, 'updated', ['2026-11-22T03:00:00.000Z', 'b3f1', 7, null]);
    expect(token).to.match(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(decodeCursor(SECRET, token, 'updated')).to.deep.equal(['2026-11-22T03:00:00.000Z', 'b3f1', 7, null]);
  });

  it('start over (null) when the sort changed', () => {
    const token = encodeCursor(SECRET, 'updated', [1]);
    expect(decodeCursor(SECRET, token, 'rating')).to.equal(null);
  });

  it('refuse an edited cursor', () => {
    const token = encodeCursor(SECRET, 'updated', [10]);
    const [, mac] = token.split('.');
    const forged = `${Buffer.from(JSON.stringify([1, 'updated', [11]])).toString('base64url')}.${mac}`;
    expect(refusal(() => decodeCursor(SECRET, forged, 'updated'))).to.include({
      code: 'invalid_request',
      field: 'cursor',
      reason: 'bad_format',
    });
  });

  it('refuse a cursor signed with another secret', () => {
    const token = encodeCursor('o'.repeat(40), 'updated', [10]);
    expect(refusal(() => decodeCursor(SECRET, token, 'updated'))).to.include({ field: 'cursor' });
  });

  for (const garbage of ['', 'abc', 'a.b.c', '..', 'x'.repeat(3000), '%%%.%%%']) {
    it(`refuse the garbage ${JSON.stringify(garbage.slice(0, 10))}`, () => {
      expect(refusal(() => decodeCursor(SECRET, garbage, 'updated'))).to.include({ code: 'invalid_request' });
    });
  }
});
