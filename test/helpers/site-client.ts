// A browser of the site: keeps the session cookie, sends the site's Origin, and has an address of its own
// (X-Forwarded-For) so per-address attempt limits of one test do not touch another.
import { randomInt } from 'node:crypto';
import { HttpVerbs, type TestClient, type TestResponse, type RequestOptions } from './http-client.js';
import { SITE_ORIGIN } from './test-app.js';

export class SiteClient extends HttpVerbs {
  cookie: string | null = null;
  readonly ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

  constructor(
    readonly http: TestClient,
    public origin: string | null = SITE_ORIGIN,
  ) {
    super();
  }

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { 'x-forwarded-for': this.ip, ...options.headers };
    if (this.origin && !('origin' in headers)) headers.origin = this.origin;
    if (this.cookie && !('cookie' in headers)) headers.cookie = this.cookie;
    const res = await this.http.request<T>(method, path, { ...options, headers });
    const set = res.headers.get('set-cookie');
    const match = set && /(?:^|,\s*)(sid=[^;]*)/.exec(set);
    if (match) this.cookie = match[1] === 'sid=' ? null : match[1];
    return res;
  }
}
