// The full middleware stack (request frame with id, error mapping and access log; body parsing; routing)
// on a cheap route, against a raw node:http server answering the same JSON, with bare Koa between them
// to show the framework's own share, and bare Koa setting only the headers every answer carries to show
// what those promises cost before any step runs. Target: at least 0.5x the raw rate.
import type { Scenario } from '../scenario.js';
import { compareServers } from '../lib/compare.js';
import { startApiServer } from '../lib/api-server.js';
import { startServer } from '../lib/processes.js';

export const stack: Scenario = {
  description: 'full middleware stack on an unknown route (404 JSON) vs raw node:http',
  target: 0.5,
  async run({ database, connections, durationSeconds, rounds }) {
    const servers = {
      'raw node:http': await startServer('bench/baselines/raw-not-found.ts', {}),
      'bare koa': await startServer('bench/baselines/bare-koa.ts', {}),
      'bare koa + answer headers': await startServer('bench/baselines/koa-with-headers.ts', {}),
      'jogatina stack': await startApiServer(database.url),
    };
    try {
      const rows = await compareServers(
        Object.entries(servers).map(([name, server]) => ({
          name,
          load: {
            url: `http://127.0.0.1:${server.port}/api/v1/nothing`,
            connections,
            durationSeconds,
            expectStatus: 404,
          },
        })),
        rounds,
      );
      return { rows, baseline: 'raw node:http', subject: 'jogatina stack' };
    } finally {
      await Promise.all(Object.values(servers).map((server) => server.stop()));
    }
  },
};
