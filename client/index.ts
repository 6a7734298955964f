// The TypeScript client of the Jogatina API: openapi-fetch over the types openapi-typescript generated from
// the reference (schema.d.ts and openapi.json are written by `npm run client:generate`; do not edit them).
//
//   const jogatina = createJogatinaClient('http://localhost:3000', { key: process.env.JOGATINA_KEY });
//   const { data, error } = await jogatina.GET('/api/v1/profiles/{username}/library', {
//     params: { path: { username: 'demo_3' }, query: { limit: 2 } },
//   });
//   if (error) throw new Error(`${error.error.code}: ${error.error.message}`);
//   for (const entry of data.data) console.log(entry.game_id, entry.status);
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, operations, paths } from './schema.js';

export type JogatinaClient = Client<paths>;

export interface JogatinaClientOptions {
  /** An API key (`jgt_live_…`), sent as `Authorization: Bearer <key>`; without it, public routes only. */
  key?: string;
  /** Another fetch (a test's, a proxy's); globalThis.fetch by default. */
  fetch?: ClientOptions['fetch'];
  /** Headers sent on every request beside the key's. */
  headers?: Record<string, string>;
}

/** A client of the API at `baseUrl` (the origin, like http://localhost:3000: the paths carry `/api/v1`). */
export function createJogatinaClient(baseUrl: string, options: JogatinaClientOptions = {}): JogatinaClient {
  return createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    headers: { ...options.headers, ...(options.key ? { Authorization: `Bearer ${options.key}` } : {}) },
    // Lists travel comma-separated (`?platforms=6,48`), as the reference declares (style form, explode false).
    querySerializer: { array: { style: 'form', explode: false } },
  });
}
