// POST /screenshots: a capture through the real image pipeline (the worker runs in this process), its answer
// and defaults, its files (metadata gone), its feed item and gallery place, every refusal of its form and
// its image, screening that flags, and who may upload. Limits: screenshots-limits.test.ts.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { captureUsesOf, captureForm, captureJpeg, storedMetadata, uploadCapture } from '../helpers/captures.js';
import { appWithKey, signedInClient } from '../helpers/factories.js';
import type { TestResponse } from '../helpers/http-client.js';
import { testMedia, useImageWorker } from '../helpers/image-worker.js';
import * as images from '../helpers/images.js';
import { catalogGame, namedPerson } from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

const FLAGGED = readFileSync(new URL('../fixtures/screening-flagged.png', import.meta.url));
const MEDIA = 'http://localhost:3000/media/';

describe('POST /screenshots', function () {
  this.timeout(60000);
  useCleanDatabase();
  const media = testMedia();
  const app = useTestApp({ media });
  useImageWorker(() => media);

  const keyOf = (url: string) => url.slice(MEDIA.length);
  const refusal = (res: TestResponse, field: string | undefined, reason: string, label: string) => {
    expect(res.status, `${label}: ${res.text}`).to.equal(400);
    expect(res.body.error, label).to.include({ code: 'invalid_request', reason });
    if (field) expect(res.body.error.field, label).to.equal(field);
  };
  const left = async () => ({
    uploads: await db()('image_uploads'),
    orphans: await db()('orphaned_media'),
  });

  it('answers 201 with the capture, its defaults and its files, writes its feed item and shows in the gallery', async () => {
    const author = await namedPerson(app.client, 'shot_author');
    const game = await catalogGame({ name: 'Outer Wilds', slug: 'outer-wilds-shot' });
    const res = await uploadCapture(author.site, { game_id: String(game.id) });
    expect(res.status, res.text).to.equal(201);
    const capture = res.body.data;
    expect(capture).to.have.keys([
      'id',
      'game_id',
      'description',
      'contains_spoilers',
      'sensitive',
      'visibility',
      'image_url',
      'image_width',
      'image_height',
      'thumbnail_url',
      'thumbnail_width',
      'thumbnail_height',
      'likes',
      'comments',
      'awards',
      'removed',
      'created_at',
      'updated_at',
    ]);
    expect(capture).to.deep.include({
      game_id: game.id,
      description: '',
      contains_spoilers: false,
      sensitive: false,
      visibility: 'PUBLIC',
      image_width: 320,
      image_height: 180,
      thumbnail_width: 320,
      thumbnail_height: 180,
      likes: 0,
      comments: 0,
      awards: {},
      removed: false,
    });
    expect(capture.id).to.match(/^[a-z0-9]{12}$/);
    expect(capture.image_url).to.match(/^http:\/\/localhost:3000\/media\/screenshots\/[0-9a-f-]{36}\.webp$/);
    expect(capture.thumbnail_url).to.match(
      /^http:\/\/localhost:3000\/media\/screenshots\/thumbnails\/[0-9a-f-]{36}\.webp$/,
    );
    expect(capture.updated_at).to.equal(capture.created_at);

    const image = await app.client.get(new URL(capture.image_url).pathname);
    expect(image.status).to.equal(200);
    expect(image.headers.get('content-type')).to.equal('image/webp');
    const thumbnail = await app.client.get(new URL(capture.thumbnail_url).pathname);
    expect(thumbnail.headers.get('content-type')).to.equal('image/webp');
    const row = await db()('screenshots').where({ public_id: capture.id }).first();
    expect(row).to.include({ account_id: author.account.id, game_id: game.id });
    expect(Number(row.bytes)).to.equal(
      Number(image.headers.get('content-length')) + Number(thumbnail.headers.get('content-length')),
    );

    const items = await db()('activity_items').where({ kind: 'screenshot', subject_id: row.id });
    expect(items).to.have.length(1);
    expect(items[0]).to.include({ account_id: author.account.id, game_id: game.id, visibility: 'PUBLIC' });
    expect(await captureUsesOf(author.account.id)).to.equal(1);
    expect(await left()).to.deep.equal({ uploads: [], orphans: [] });

    const gallery = await new SiteClient(app.client).get('/api/v1/profiles/shot_author/screenshots');
    expect(gallery.body).to.include({ total: 1, safe_count: 1, spoiler_count: 0 });
    // The gallery shows the capture as the answer did, but for what only the author's answer carries.
    const [shown] = gallery.body.data;
    expect(Object.keys(shown)).to.have.length(15);
    for (const [key, value] of Object.entries(shown)) expect(capture[key], key).to.deep.equal(value);
    const feed = await new SiteClient(app.client).get('/api/v1/activity?profile=shot_author');
    expect(feed.body.data.map((item: { kind: string }) => item.kind)).to.deep.equal(['screenshot']);
    expect(feed.body.data[0]).to.include({ screenshot_id: capture.id, imageUrl: capture.image_url });
  });

  it('takes every field as form text: booleans true/false, numbers in decimal, texts with line breaks', async () => {
    const author = await namedPerson(app.client, 'shot_fields');
    const game = await catalogGame();
    // A form carries line breaks as CRLF (FormData itself turns \n into \r\n); they are kept as sent.
    const description = `Line one\r\nline two\t${'é'.repeat(400)}`;
    const res = await uploadCapture(author.site, {
      game_id: String(game.id),
      description,
      contains_spoilers: 'true',
      visibility: 'FOLLOWERS',
    });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.data).to.include({ description, contains_spoilers: true, visibility: 'FOLLOWERS' });
    const longest = await uploadCapture(author.site, { game_id: String(game.id), description: '😀'.repeat(500) });
    expect(longest.status, longest.text).to.equal(201);
    expect([...longest.body.data.description]).to.have.length(500);
    const item = await db()('activity_items').where({ account_id: author.account.id }).orderBy('created_at').first();
    expect(item.visibility).to.equal('FOLLOWERS');
  });

  it('uploads once under an Idempotency-Key: a retry replays the capture', async () => {
    const author = await namedPerson(app.client, 'shot_retry');
    const game = await catalogGame();
    const headers = { 'idempotency-key': randomUUID() };
    const first = await uploadCapture(author.site, { game_id: String(game.id) }, undefined, headers);
    const again = await uploadCapture(author.site, { game_id: String(game.id) }, undefined, headers);
    expect(first.status, first.text).to.equal(201);
    expect(again.status).to.equal(201);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body).to.deep.equal(first.body);
    expect(await db()('screenshots').where({ account_id: author.account.id })).to.have.length(1);
    expect(await captureUsesOf(author.account.id)).to.equal(1);
  });

  it('stores the image and its thumbnail without EXIF or GPS, read back from storage', async () => {
    const author = await namedPerson(app.client, 'shot_gps');
    const game = await catalogGame();
    const photo = await images.jpegWithGpsAndOrientation();
    expect(images.exifHasGps((await (await import('sharp')).default(photo).metadata()).exif)).to.equal(true);
    const res = await uploadCapture(author.site, { game_id: String(game.id) }, photo);
    expect(res.status, res.text).to.equal(201);
    // The orientation was applied before the metadata went.
    expect(res.body.data).to.include({ image_width: 100, image_height: 200 });
    for (const url of [res.body.data.image_url, res.body.data.thumbnail_url]) {
      const stored = await media.get(keyOf(url));
      expect(stored, url).to.not.equal(null);
      const meta = await storedMetadata(stored!.body);
      expect(meta.exif, url).to.equal(undefined);
      expect(images.exifHasGps(meta.exif)).to.equal(false);
      expect(meta.xmp, url).to.equal(undefined);
      expect(meta.orientation, url).to.equal(undefined);
    }
  });

  it('keeps what screening finds explicit, flagged sensitive, instead of refusing it', async () => {
    const author = await namedPerson(app.client, 'shot_flagged');
    const game = await catalogGame();
    const res = await uploadCapture(author.site, { game_id: String(game.id) }, FLAGGED);
    expect(res.status, res.text).to.equal(201);
    expect(res.body.data.sensitive).to.equal(true);
    const gallery = await author.site.get('/api/v1/profiles/shot_flagged/screenshots');
    expect(gallery.body.data[0]).to.include({ id: res.body.data.id, sensitive: true });
  });

  it('refuses what the form’s schema sees with validation’s reasons, and an unknown game with fields_invalid', async () => {
    const author = await namedPerson(app.client, 'shot_refused');
    const game = await catalogGame();
    const ok = { game_id: String(game.id) };
    const cases: Array<[Record<string, string | string[]>, string, string]> = [
      [{}, 'game_id', 'missing'],
      [{ game_id: 'abc' }, 'game_id', 'wrong_type'],
      [{ game_id: '1.5' }, 'game_id', 'wrong_type'],
      [{ game_id: '' }, 'game_id', 'wrong_type'],
      [{ game_id: [ok.game_id, ok.game_id] }, 'game_id', 'wrong_type'],
      [{ game_id: '0' }, 'game_id', 'out_of_range'],
      [{ game_id: '2147483648' }, 'game_id', 'out_of_range'],
      [{ ...ok, description: 'x'.repeat(501) }, 'description', 'too_long'],
      [{ ...ok, description: '😀'.repeat(501) }, 'description', 'too_long'],
      [{ ...ok, description: 'bell \u0007' }, 'description', 'bad_format'],
      [{ ...ok, description: 'nul \u0000' }, 'description', 'bad_format'],
      [{ ...ok, contains_spoilers: 'yes' }, 'contains_spoilers', 'wrong_type'],
      [{ ...ok, contains_spoilers: '1' }, 'contains_spoilers', 'wrong_type'],
      [{ ...ok, contains_spoilers: 'TRUE' }, 'contains_spoilers', 'wrong_type'],
      [{ ...ok, visibility: 'SECRET' }, 'visibility', 'not_allowed'],
      [{ ...ok, visibility: 'public' }, 'visibility', 'not_allowed'],
      [{ ...ok, title: 'Not a field' }, 'title', 'unknown_field'],
      [{ game_id: '987654321' }, 'game_id', 'fields_invalid'],
    ];
    for (const [fields, field, reason] of cases) {
      refusal(await uploadCapture(author.site, fields), field, reason, JSON.stringify(fields).slice(0, 60));
    }
    refusal(await uploadCapture(author.site, ok, null), 'image', 'missing', 'no image');
    const misnamed = captureForm(ok);
    misnamed.append('picture', new Blob([await captureJpeg()]), 'a.jpg');
    refusal(await author.site.request('POST', '/api/v1/screenshots', { raw: misnamed }), 'image', 'missing', 'picture');
    const json = await author.site.post('/api/v1/screenshots', ok);
    refusal(json, undefined, 'unsupported_content_type', 'JSON body');
    // Refused before the upload was handed to processing: nothing is kept and no upload of the day is used.
    expect(await db()('screenshots').where({ account_id: author.account.id })).to.have.length(0);
    expect(await captureUsesOf(author.account.id)).to.equal(0);
    expect(await left()).to.deep.equal({ uploads: [], orphans: [] });
  });

  const imageRefusals: Array<[string, () => Promise<Buffer> | Buffer, string]> = [
    ['an SVG', images.svgDocument, 'invalid_format'],
    ['an HTML page', images.htmlDocument, 'invalid_format'],
    ['a GIF still', () => images.stillImage('gif', 64, 48), 'invalid_format'],
    ['an animated WebP', () => images.animatedWebp({ frames: 3 }), 'unsupported_animation'],
    ['an animated PNG', () => images.animatedPng(), 'unsupported_animation'],
    ['a truncated JPEG', images.truncatedJpeg, 'invalid_image'],
    ['a 20000x20000 PNG of a few KB', images.hugeFlatPng, 'too_many_pixels'],
  ];
  for (const [what, make, reason] of imageRefusals) {
    it(`refuses ${what} with 400 reason ${reason}, keeping nothing but the day’s use`, async () => {
      const author = await signedInClient(app.client);
      const game = await catalogGame();
      const res = await uploadCapture(author.site, { game_id: String(game.id) }, await make());
      refusal(res, undefined, reason, what);
      expect(await db()('screenshots').where({ account_id: author.account.id })).to.have.length(0);
      expect(await db()('activity_items').where({ account_id: author.account.id })).to.have.length(0);
      expect(await left()).to.deep.equal({ uploads: [], orphans: [] });
      // Processing read it: the upload counts toward the day's 100.
      expect(await captureUsesOf(author.account.id)).to.equal(1);
    });
  }

  it('refuses a file over 15 MB as too_large before it reaches processing', async () => {
    const author = await namedPerson(app.client, 'shot_big');
    const game = await catalogGame();
    const res = await uploadCapture(author.site, { game_id: String(game.id) }, await images.oversizedJpeg());
    refusal(res, 'image', 'too_large', 'over 15 MB');
    expect(await captureUsesOf(author.account.id)).to.equal(0);
  });

  describe('who may upload', () => {
    it('takes a key with screenshots.write, as a capture tool is', async () => {
      const author = await namedPerson(app.client, 'shot_tool');
      const game = await catalogGame();
      const { token } = await appWithKey(author.account.id, ['screenshots.write']);
      const res = await uploadCapture(app.client, { game_id: String(game.id) }, undefined, {
        authorization: `Bearer ${token}`,
      });
      expect(res.status, res.text).to.equal(201);
      expect(res.headers.get('x-ratelimit-resource')).to.equal('write');
    });

    it('answers 403 insufficient_scope to a key without screenshots.write, on every route', async () => {
      const author = await namedPerson(app.client, 'shot_scopeless');
      const game = await catalogGame();
      const { token } = await appWithKey(author.account.id, ['screenshots.read', 'profile.write']);
      const headers = { authorization: `Bearer ${token}` };
      const calls: Array<() => Promise<TestResponse>> = [
        () => uploadCapture(app.client, { game_id: String(game.id) }, undefined, headers),
        () => app.client.patch('/api/v1/screenshots/abc', { description: 'x' }, { headers }),
        () => app.client.delete('/api/v1/screenshots/abc', { headers }),
      ];
      for (const call of calls) {
        const res = await call();
        expect(res.status, res.text).to.equal(403);
        expect(res.body.error).to.include({ code: 'insufficient_scope', scope: 'screenshots.write' });
      }
      expect(await captureUsesOf(author.account.id)).to.equal(0);
    });

    it('answers 401 to anyone signed out, on every route', async () => {
      const game = await catalogGame();
      const visitor = new SiteClient(app.client);
      const answers = [
        await uploadCapture(visitor, { game_id: String(game.id) }),
        await visitor.patch('/api/v1/screenshots/abc', { description: 'x' }),
        await visitor.delete('/api/v1/screenshots/abc'),
      ];
      for (const res of answers) {
        expect(res.status).to.equal(401);
        expect(res.body.error.code).to.equal('unauthorized');
      }
    });
  });
});
