// npm run client:generate: writes the TypeScript client's generated files into client/ from the router
// itself, built exactly as the server builds it (never listening, no database reached):
//   client/openapi.json  the OpenAPI 3.1 document GET /api/v1/openapi.json serves (server: localhost:3000)
//   client/schema.d.ts   its types, by openapi-typescript (paths, components, operations)
// client/index.ts (written by hand) puts openapi-fetch over them. The files are committed; a test builds them
// again in memory and fails when they differ (test/unit/client-fresh.test.ts), so they cannot drift.
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type Router from '@koa/router';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { buildOpenApiDocument } from '../api/openapi/build-document.js';

const require = createRequire(import.meta.url);
const { version } = require('../package.json') as { version: string };

/** The server named in the generated document: fixed, so the files do not depend on where they were made. */
export const CLIENT_SERVER_URL = 'http://localhost:3000';
export const CLIENT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../client');

/** The generated files, by name inside client/, from a router built as the server builds it. */
export async function clientFiles(router: Router): Promise<Record<string, string>> {
  const document = buildOpenApiDocument(router, { version, publicUrl: CLIENT_SERVER_URL });
  const ast = await openapiTS(document as unknown as OpenAPI3);
  return {
    'openapi.json': `${JSON.stringify(document, null, 2)}\n`,
    'schema.d.ts': COMMENT_HEADER + astToString(ast),
  };
}

/** The app's router, as api/server.ts makes it; the database handle is opened lazily and never queried. */
async function serverRouter(): Promise<{ router: Router; close: () => Promise<void> }> {
  process.env.SECRET ??= 'client-generation-only-0123456789abcdef';
  const [{ createApp }, { config }, knex, { JobReplies }, { createLogger }] = await Promise.all([
    import('../api/app.js'),
    import('../shared/platform/config.js'),
    import('../shared/platform/db/knex.js'),
    import('../shared/platform/jobs/request-reply.js'),
    import('../shared/platform/logger.js'),
  ]);
  const database = knex.openDatabase(config().databaseUrl ?? 'postgres://127.0.0.1:1/unused', 2);
  const log = createLogger('silent');
  const app = createApp({
    knex: database,
    log,
    config: config(),
    boss: () => null,
    replies: new JobReplies({} as never, database, log),
  });
  const mounted = app.middleware.find((middleware) => 'router' in middleware);
  return { router: (mounted as unknown as { router: Router }).router, close: knex.closeDatabase };
}

async function main(): Promise<void> {
  const { router, close } = await serverRouter();
  try {
    const files = await clientFiles(router);
    await mkdir(CLIENT_DIR, { recursive: true });
    for (const [name, text] of Object.entries(files)) {
      await writeFile(path.join(CLIENT_DIR, name), text);
      console.log(`wrote client/${name} (${text.length} characters)`);
    }
  } finally {
    await close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
