import { existsSync, readFileSync } from 'node:fs';
import Router from '@koa/router';
import { expect } from 'chai';
import type { AppState } from '../../api/context.js';
import { multipartFile, UPLOAD_LIMIT_BYTES } from '../../api/middleware/multipart.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

describe('multipart uploads (routes that take files)', () => {
  let app: TestApp;
  const seen: Array<{ path: string; bytes: number; existed: boolean; head: string }> = [];

  before(async () => {
    const router = new Router<AppState>();
    router.post('/probe/upload', multipartFile({ field: 'image', maxBytes: UPLOAD_LIMIT_BYTES }), (ctx) => {
      const upload = ctx.state.upload!;
      seen.push({
        path: upload.path,
        bytes: upload.bytes,
        existed: existsSync(upload.path),
        head: readFileSync(upload.path).subarray(0, 4).toString('hex'),
      });
      ctx.status = 201;
      ctx.body = { data: { bytes: upload.bytes, declared_type: upload.declaredType } };
    });
    app = await startTestApp({ extraRoutes: [router] });
  });
  after(() => app.close());

  function form(parts: Record<string, Blob | string>): FormData {
    const data = new FormData();
    for (const [name, value] of Object.entries(parts)) {
      if (typeof value === 'string') data.append(name, value);
      else data.append(name, value, `${name}.png`);
    }
    return data;
  }

  it('hands the file to the route and removes it afterwards', async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const res = await app.client.request('POST', '/probe/upload', {
      raw: form({ image: new Blob([bytes], { type: 'image/png' }) }),
    });
    expect(res.status).to.equal(201);
    expect(res.body.data).to.deep.equal({ bytes: 7, declared_type: 'image/png' });
    const last = seen.at(-1)!;
    expect(last).to.include({ bytes: 7, existed: true, head: '89504e47' });
    expect(existsSync(last.path), 'temporary file removed').to.equal(false);
  });

  it('accepts a file of exactly 15 MB', async () => {
    const res = await app.client.request('POST', '/probe/upload', {
      raw: form({ image: new Blob([Buffer.alloc(UPLOAD_LIMIT_BYTES, 1)]) }),
    });
    expect(res.status).to.equal(201);
    expect(res.body.data.bytes).to.equal(UPLOAD_LIMIT_BYTES);
  });

  it('refuses a file over 15 MB with 400 too_large', async () => {
    const res = await app.client.request('POST', '/probe/upload', {
      raw: form({ image: new Blob([Buffer.alloc(UPLOAD_LIMIT_BYTES + 1, 1)]) }),
    });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.deep.include({ code: 'invalid_request', reason: 'too_large', field: 'image' });
  });

  it('refuses a form without the file field', async () => {
    const res = await app.client.request('POST', '/probe/upload', { raw: form({ other: 'text' }) });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.deep.include({ code: 'invalid_request', reason: 'missing', field: 'image' });
  });

  it('refuses two files', async () => {
    const res = await app.client.request('POST', '/probe/upload', {
      raw: form({ image: new Blob([Buffer.from('a')]), extra: new Blob([Buffer.from('b')]) }),
    });
    expect(res.status).to.equal(400);
    expect(res.body.error.reason).to.equal('too_many_files');
  });

  it('refuses an empty file', async () => {
    const res = await app.client.request('POST', '/probe/upload', { raw: form({ image: new Blob([]) }) });
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('invalid_request');
  });

  it('refuses JSON where a file is expected', async () => {
    const res = await app.client.post('/probe/upload', { image: 'data:...' });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.deep.include({ code: 'invalid_request', reason: 'unsupported_content_type' });
  });

  it('refuses a multipart body that is cut short', async () => {
    const res = await app.client.request('POST', '/probe/upload', {
      raw: '--XYZ\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\nabc',
      headers: { 'content-type': 'multipart/form-data; boundary=XYZ' },
    });
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('invalid_request');
  });
});
