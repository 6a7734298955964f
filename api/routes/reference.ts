// The API reference: GET /api/v1/openapi.json, the OpenAPI 3.1 document built from the router itself
// (api/openapi/), and GET /docs, a page rendering it with Redoc's standalone bundle served from our own
// installed files (no CDN: the page works offline and no third party sees our readers). Swagger UI was
// tried first: with this document it stopped rendering after the first few operations.
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { buildOpenApiDocument } from '../openapi/build-document.js';
import { doc } from '../openapi/route-facts.js';
import { SERVICE_ANSWERS } from '../openapi/shapes/service.js';
import type { AppState } from '../context.js';
import { publicRoute } from '../middleware/access.js';
import type { VersionedRoutes } from './versioned.js';
import { projectFile } from '../../shared/platform/project-root.js';

const require = createRequire(import.meta.url);
const { version } = JSON.parse(readFileSync(projectFile('package.json'), 'utf8')) as { version: string };

export const OPENAPI_PATH = '/openapi.json';

/** Must be declared after every other route: the document is built from the router once, when first asked. */
export function referenceRoutes(api: VersionedRoutes, router: Router<AppState>, publicUrl: string): void {
  let document: string | null = null;
  api.get(
    OPENAPI_PATH,
    publicRoute(null),
    doc({
      summary: 'This reference, as an OpenAPI 3.1 document',
      description: 'Built from the routes the server runs and the JSON Schemas it validates input with.',
      headers: { 'Cache-Control': 'public, max-age=300' },
      response: SERVICE_ANSWERS.reference,
      example: { openapi: '3.1.0', info: { title: 'Jogatina API', version }, paths: {} },
    }),
    async (ctx) => {
      document ??= JSON.stringify(buildOpenApiDocument(router, { version, publicUrl }));
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.type = 'application/json';
      ctx.body = document;
    },
  );
}

const REDOC = require.resolve('redoc/bundles/redoc.standalone.js');

/** The files the page needs, by the name the page asks for. */
const ASSETS: Record<string, { file: string; type: string }> = {
  'redoc.standalone.js': { file: REDOC, type: 'text/javascript' },
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Jogatina API reference</title>
</head>
<body style="margin: 0">
<div id="reference"></div>
<script src="/docs/assets/redoc.standalone.js"></script>
<script src="/docs/assets/start.js"></script>
</body>
</html>
`;

const START = `Redoc.init('/api/v1${OPENAPI_PATH}', {
  expandResponses: '200,201',
  jsonSampleExpandLevel: 3,
  sortTagsAlphabetically: false,
}, document.getElementById('reference'));
`;

// Scripts from our origin only; Redoc injects its styles, and runs its search index in a blob: worker.
const PAGE_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'";

/** GET /docs and its files, answered before body parsing and authentication: nothing here is per caller. */
export function docsPage(): Middleware<AppState> {
  const cache = new Map<string, Buffer>();
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/docs' || ctx.path === '/docs/') {
      ctx.set('Content-Security-Policy', PAGE_POLICY);
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = PAGE;
      return;
    }
    const name = ctx.path.startsWith('/docs/assets/') ? ctx.path.slice('/docs/assets/'.length) : null;
    if (name === null) return next();
    if (name === 'start.js') {
      ctx.type = 'text/javascript';
      ctx.body = START;
    } else if (Object.hasOwn(ASSETS, name)) {
      const asset = ASSETS[name];
      if (!cache.has(name)) cache.set(name, await readFile(asset.file));
      ctx.type = asset.type;
      ctx.body = cache.get(name);
    } else {
      return next();
    }
    ctx.set('Cache-Control', 'public, max-age=86400');
  };
}
