// The app's one router, matching a request against the routes that can match it only. @koa/router tests
// every route's pattern on every request (and calls its disabled `debug` once per route): with about 250
// routes that was a fifth of the time of an answer to an unknown path. Routes are grouped by the first
// segments of their path when those are plain words (`/api/v1/games/...` under `api/v1/games`); a request
// is tested against its group and the routes with no such key (a parameter early in the path, or a
// mounted router), in the order they were declared, so the answer is exactly the library's.
import type Router from '@koa/router';
import type { Layer, MatchResult } from '@koa/router';

/** Segments a group key is made of: `api`, `v1` and the area (`games`, `profiles`, `account`, ...). */
const KEY_SEGMENTS = 3;
const PLAIN_SEGMENT = /^[A-Za-z0-9._~-]+$/;

/** The group of a request path: its first segments, lower-cased (routes match regardless of case). */
function requestKey(path: string): string {
  return path
    .split('/', KEY_SEGMENTS + 1)
    .slice(1)
    .join('/')
    .toLowerCase();
}

/** The group of a route, or null when any request may match it. */
function routeKey(layer: Layer<unknown>): string | null {
  // A route given as a regular expression may match anything.
  if (typeof layer.path !== 'string') return null;
  const segments = layer.path.split('/');
  // A route shorter than the key, or a prefix (a mounted router), could match paths of other groups.
  if (segments[0] !== '' || segments.length < KEY_SEGMENTS + 1 || layer.opts.end === false) return null;
  const key = segments.slice(1, KEY_SEGMENTS + 1);
  return key.every((segment) => PLAIN_SEGMENT.test(segment)) ? key.join('/').toLowerCase() : null;
}

interface RouteIndex {
  size: number;
  groups: Map<string, Layer<unknown>[]>;
  /** The routes of no group: tested for every request. */
  open: Layer<unknown>[];
}

/**
 * Gives `router` the indexed match (an own method in place of the prototype's: the library's dispatch
 * calls `this.match`). The index is built at the first request, and again if routes were added since.
 */
export function withIndexedMatching<StateT>(router: Router<StateT>): Router<StateT> {
  let built: RouteIndex | null = null;
  const index = (): RouteIndex => {
    if (built?.size === router.stack.length) return built;
    const stack = router.stack as Layer<unknown>[];
    const keys = stack.map(routeKey);
    const groups = new Map<string, Layer<unknown>[]>();
    // Each group keeps the declared order, with the open routes where they were declared.
    for (const key of new Set(keys)) {
      if (key === null) continue;
      groups.set(
        key,
        stack.filter((_, i) => keys[i] === key || keys[i] === null),
      );
    }
    built = { size: stack.length, groups, open: stack.filter((_, i) => keys[i] === null) };
    return built;
  };
  router.match = (path: string, method: string): MatchResult<StateT> => {
    const { groups, open } = index();
    const candidates = (groups.get(requestKey(path)) ?? open) as Layer<StateT>[];
    const result: MatchResult<StateT> = { path: [], pathAndMethod: [], route: false };
    const wanted = method.toUpperCase();
    // The library's own loop (Router.prototype.match), over the candidates only.
    for (const layer of candidates) {
      if (!layer.match(path)) continue;
      result.path.push(layer);
      if (layer.methods.length === 0 || layer.methods.includes(wanted)) {
        result.pathAndMethod.push(layer);
        if (layer.methods.length > 0) result.route = true;
      }
    }
    return result;
  };
  return router;
}
