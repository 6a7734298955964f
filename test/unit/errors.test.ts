import { expect } from 'chai';
import {
  conflict,
  forbidden,
  insufficientScope,
  internal,
  invalidKey,
  invalidRequest,
  methodNotAllowed,
  notFound,
  rateLimited,
  unauthorized,
} from '../../shared/platform/errors.js';
import { mapDatabaseError, registerConstraint } from '../../shared/platform/db/database-errors.js';

describe('the error catalogue', () => {
  const cases: Array<[string, ReturnType<typeof notFound>, number, Record<string, unknown>]> = [
    [
      'invalidRequest',
      invalidRequest('bad', { field: 'page' }),
      400,
      { code: 'invalid_request', message: 'bad', field: 'page' },
    ],
    ['unauthorized', unauthorized(), 401, { code: 'unauthorized' }],
    ['invalidKey', invalidKey(), 401, { code: 'invalid_key', message: 'The API key is not valid.' }],
    [
      'insufficientScope',
      insufficientScope('library.read'),
      403,
      { code: 'insufficient_scope', scope: 'library.read' },
    ],
    ['forbidden', forbidden('mfa_required'), 403, { code: 'forbidden', reason: 'mfa_required' }],
    ['notFound', notFound(), 404, { code: 'not_found' }],
    ['conflict', conflict('in_use', { version: 3 }), 409, { code: 'conflict', reason: 'in_use', version: 3 }],
    ['internal', internal('upload_failed'), 500, { code: 'internal', reason: 'upload_failed' }],
  ];
  for (const [name, error, status, members] of cases) {
    it(`${name} answers ${status} with its code`, () => {
      expect(error.status).to.equal(status);
      expect(error.body().error).to.include(members);
      expect(error.body().error.message).to.be.a('string').and.not.empty;
    });
  }

  it('leaves out members that are undefined', () => {
    expect(forbidden().body()).to.deep.equal({ error: { code: 'forbidden', message: 'This caller may not do this.' } });
  });

  it('uses the shared message of a known reason', () => {
    expect(forbidden('reauthentication_required').message).to.match(/15 minutes/);
  });

  it('rate limits carry retry_after in the body and Retry-After in the headers, rounded up', () => {
    const error = rateLimited(12.2, 'too_many_attempts');
    expect(error.body().error).to.include({ code: 'rate_limited', retry_after: 13, reason: 'too_many_attempts' });
    expect(error.headers).to.deep.equal({ 'Retry-After': '13' });
    expect(rateLimited(0).body().error.retry_after).to.equal(1);
  });

  it('405 names the allowed methods in Allow', () => {
    expect(methodNotAllowed(['GET', 'PUT']).headers).to.deep.equal({ Allow: 'GET, PUT' });
  });
});

describe('database errors', () => {
  it('maps a unique violation to 409 and a check violation to 400', () => {
    expect(mapDatabaseError({ code: '23505', constraint: 'anything' })?.status).to.equal(409);
    expect(mapDatabaseError({ code: '23514', constraint: 'anything' })?.status).to.equal(400);
    expect(mapDatabaseError({ code: '23503' })?.status).to.equal(404);
  });

  it('uses the error a domain registered for its constraint', () => {
    registerConstraint('test_one_open_report', () => conflict('duplicate_report'));
    const mapped = mapDatabaseError({ code: '23505', constraint: 'test_one_open_report' });
    expect(mapped?.body().error).to.include({ code: 'conflict', reason: 'duplicate_report' });
  });

  it('reads the PostgreSQL fields through an Objection-wrapped error', () => {
    const wrapped = {
      name: 'CheckViolationError',
      nativeError: { code: '23514', constraint: 'some_unregistered_check' },
    };
    expect(mapDatabaseError(wrapped)?.status).to.equal(400);
  });

  it('leaves other errors alone (they become 500)', () => {
    expect(mapDatabaseError(new Error('boom'))).to.equal(null);
    expect(mapDatabaseError({ code: '57P01' })).to.equal(null);
    expect(mapDatabaseError(undefined)).to.equal(null);
  });
});
