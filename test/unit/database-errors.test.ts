// Which database errors answer 503 (the database could not be reached: try again) and which are a
// statement's own fault (500 or a mapped 4xx), by what the driver reports.
import { expect } from 'chai';
import { isDatabaseUnreachable } from '../../shared/platform/db/database-errors.js';

describe('isDatabaseUnreachable', () => {
  const cases: Array<[string, unknown, boolean]> = [
    ['a refused connection', { code: 'ECONNREFUSED' }, true],
    ['a connection failure (08006)', { code: '08006' }, true],
    ['a server shutting down (57P01)', { code: '57P01' }, true],
    ['too many connections (53300)', { code: '53300' }, true],
    ['a pool that could not give a connection in time', { name: 'KnexTimeoutError' }, true],
    ['a connection ended under a query', { message: 'Connection terminated unexpectedly' }, true],
    ['wrapped by Objection', { nativeError: { code: '08001' } }, true],
    ['a statement sent with the wrong number of values (08P01)', { code: '08P01' }, false],
    ['a syntax error (42601)', { code: '42601' }, false],
    ['a unique violation (23505)', { code: '23505' }, false],
    ['nothing at all', undefined, false],
  ];
  for (const [name, error, expected] of cases) {
    it(`${expected ? 'is' : 'is not'} unreachable: ${name}`, () => {
      expect(isDatabaseUnreachable(error)).to.equal(expected);
    });
  }
});
