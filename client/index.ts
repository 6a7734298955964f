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
import type { components, paths, webhooks } from './schema.js';

export type { components, operations, paths, webhooks } from './schema.js';

/** The type of an event for integrations: `review.saved`, `ping`... (the reference's `webhooks`). */
export type WebhookEventType = keyof webhooks & string;

/**
 * The claims of a verified event token of type `T` (the reference's `Event_<type>`): `iss`, `aud`, `jti`,
 * `iat`, `type`, `sub` (not on `ping`), `seq` and `data`, typed as the owner's read route answers it.
 */
export type WebhookEventOf<T extends WebhookEventType> = components['schemas'][`Event_${T}`];

/** Any event's claims: a union told apart by `type` (`switch (event.type)` narrows `data`). */
export type WebhookEvent = { [T in WebhookEventType]: WebhookEventOf<T> }[WebhookEventType];

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
