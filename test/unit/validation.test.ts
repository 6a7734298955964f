import Router from '@koa/router';
import { scoped } from '../../api/middleware/access.js';
import { VersionedRoutes } from '../../api/routes/versioned.js';
import { expect } from 'chai';
import { coerceParameters, coerceValue } from '../../shared/platform/validation/coerce.js';
import { fieldName } from '../../shared/platform/validation/describe-error.js';
import { encodeReply } from '../../shared/platform/jobs/request-reply.js';
import { hasBody } from '../../api/middleware/body.js';

describe('query coercion', () => {
  const table: Array<[string, object, unknown]> = [
    ['12', { type: 'integer' }, 12],
    ['-3', { type: 'integer' }, -3],
    ['12.0', { type: 'integer' }, '12.0'],
    ['1e3', { type: 'integer' }, '1e3'],
    ['0x10', { type: 'integer' }, '0x10'],
    ['', { type: 'integer' }, ''],
    ['9999999999999999', { type: 'integer' }, '9999999999999999'],
    ['1.5', { type: 'number' }, 1.5],
    ['true', { type: 'boolean' }, true],
    ['1', { type: 'boolean' }, true],
    ['0', { type: 'boolean' }, false],
    ['yes', { type: 'boolean' }, 'yes'],
    ['a, b', { type: 'array', items: { type: 'string' } }, ['a', 'b']],
    ['1,2', { type: 'array', items: { type: 'integer' } }, [1, 2]],
    ['', { type: 'array', items: { type: 'integer' } }, []],
    ['text', { type: 'string' }, 'text'],
  ];
  for (const [raw, schema, expected] of table) {
    it(`turns ${JSON.stringify(raw)} for ${JSON.stringify(schema)} into ${JSON.stringify(expected)}`, () => {
      expect(coerceValue(raw, schema)).to.deep.equal(expected);
    });
  }

  it('drops unknown parameters and keeps a repeated one as a list of text', () => {
    const schema = { type: 'object', properties: { page: { type: 'integer' } } };
    expect(coerceParameters({ page: ['1', '2'], other: 'x' }, schema)).to.deep.equal({ page: ['1', '2'] });
  });
});

describe('field names of validation errors', () => {
  it('names nested fields with dots, and a list rather than its item', () => {
    expect(fieldName('/layout/sections/0/id', undefined, 'body')).to.equal('layout.sections.0.id');
    expect(fieldName('/scopes/2', undefined, 'body')).to.equal('scopes');
    expect(fieldName('', 'name', 'body')).to.equal('name');
    expect(fieldName('', undefined, 'body')).to.equal('body');
  });
});

describe('job replies', () => {
  it('inline small results and flag large ones to be read back', () => {
    expect(JSON.parse(encodeReply({ id: 'a', ok: true, result: { n: 1 } }))).to.deep.equal({
      id: 'a',
      ok: true,
      result: { n: 1 },
    });
    expect(JSON.parse(encodeReply({ id: 'a', ok: true, result: 'x'.repeat(9000) }))).to.deep.equal({
      id: 'a',
      ok: true,
      large: true,
    });
  });
});

describe('body detection', () => {
  it('sees a body by length or chunked transfer', () => {
    expect(hasBody({})).to.equal(false);
    expect(hasBody({ 'content-length': '0' })).to.equal(false);
    expect(hasBody({ 'content-length': '2' })).to.equal(true);
    expect(hasBody({ 'transfer-encoding': 'chunked' })).to.equal(true);
  });
});

describe('route registration', () => {
  it('refuses a versioned route without an access declaration first', () => {
    const api = new VersionedRoutes(new Router());
    expect(() => api.get('/open', async () => undefined)).to.throw(/must start with an access declaration/);
    expect(() => api.get('/fine', scoped(null, 'read'), async () => undefined)).not.to.throw();
  });
});
