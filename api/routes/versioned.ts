// Areas add their routes to the app's single router through this helper, which puts `/api/v1` in front
// of each path. One flat router means one path match per request (nested routers match again at each
// level), and one place that knows every route for 405 answers and the OpenAPI document.
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { AppState } from '../context.js';
import { isAccessDeclaration } from '../middleware/access.js';

export const API_PREFIX = '/api/v1';

type Handler = Middleware<AppState>;
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export class VersionedRoutes {
  constructor(private readonly router: Router<AppState>) {}

  private add(method: Method, path: string, handlers: Handler[]): this {
    // Without a declaration first, a key would never be resolved and the route would run anonymous.
    if (!isAccessDeclaration(handlers[0])) {
      throw new Error(
        `${method.toUpperCase()} ${API_PREFIX}${path} must start with an access declaration (scoped, publicRoute or sessionOnly)`,
      );
    }
    (this.router[method] as (path: string, ...handlers: Handler[]) => unknown)(API_PREFIX + path, ...handlers);
    return this;
  }

  get = (path: string, ...handlers: Handler[]) => this.add('get', path, handlers);
  post = (path: string, ...handlers: Handler[]) => this.add('post', path, handlers);
  put = (path: string, ...handlers: Handler[]) => this.add('put', path, handlers);
  patch = (path: string, ...handlers: Handler[]) => this.add('patch', path, handlers);
  delete = (path: string, ...handlers: Handler[]) => this.add('delete', path, handlers);
}
