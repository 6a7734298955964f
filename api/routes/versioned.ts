// Areas add their routes to the app's single router through this helper, which puts `/api/v1` in front
// of each path. One flat router means one path match per request (nested routers match again at each
// level), and one place that knows every route for 405 answers and the OpenAPI document.
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { AppState } from '../context.js';

export const API_PREFIX = '/api/v1';

type Handler = Middleware<AppState>;

export class VersionedRoutes {
  constructor(private readonly router: Router<AppState>) {}

  get(path: string, ...handlers: Handler[]): this {
    this.router.get(API_PREFIX + path, ...(handlers as never[]));
    return this;
  }
  post(path: string, ...handlers: Handler[]): this {
    this.router.post(API_PREFIX + path, ...(handlers as never[]));
    return this;
  }
  put(path: string, ...handlers: Handler[]): this {
    this.router.put(API_PREFIX + path, ...(handlers as never[]));
    return this;
  }
  patch(path: string, ...handlers: Handler[]): this {
    this.router.patch(API_PREFIX + path, ...(handlers as never[]));
    return this;
  }
  delete(path: string, ...handlers: Handler[]): this {
    this.router.delete(API_PREFIX + path, ...(handlers as never[]));
    return this;
  }
}
