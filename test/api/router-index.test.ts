// The app router's indexed match (api/routes/indexed-router.ts) answers exactly what @koa/router's own
// match answers, for every route of the app and the paths around them (other cases, a trailing slash, one
// segment more or less, every method), and for paths no route takes.
import Router from '@koa/router';
import { expect } from 'chai';
import { withIndexedMatching } from '../../api/routes/indexed-router.js';
import { appRouter } from '../helpers/app-router.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

describe('the indexed route match', () => {
  it('matches every path near every route as the library does', () => {
    const router = appRouter();
    const library = (path: string, method: string) => Router.prototype.match.call(router, path, method);
    const paths = [...new Set(router.stack.map((layer) => String(layer.path)))];
    expect(paths.length).to.be.greaterThan(100);
    const samples = paths.flatMap((path) => {
      const concrete = path.replace(/:(\w+)/g, (_, name: string) => `sample-${name.length}`);
      const parent = concrete.split('/').slice(0, -1).join('/');
      return [concrete, concrete.toUpperCase(), `${concrete}/`, `${concrete}/more`, parent, `${parent}/levels`];
    });
    const unknown = [
      '/',
      '/api',
      '/api/v1',
      '/api/v1/',
      '/api/v2/games',
      '/API/V1/GAMES',
      '/api/v1//games',
      '/x/y/z/w',
    ];
    let compared = 0;
    for (const path of [...samples, ...unknown]) {
      for (const method of METHODS) {
        const ours = router.match(path, method);
        const theirs = library(path, method);
        expect(ours.route, `${method} ${path}`).to.equal(theirs.route);
        expect(ours.path, `${method} ${path}`).to.have.ordered.members(theirs.path);
        expect(ours.pathAndMethod, `${method} ${path}`).to.have.ordered.members(theirs.pathAndMethod);
        compared += 1;
      }
    }
    expect(compared).to.be.greaterThan(5000);
  });

  it('keeps routes no group can hold (early parameters, prefixes, patterns) in every group, in order', () => {
    const handler = async () => undefined;
    const router = withIndexedMatching(new Router());
    router.get('/api/v1/games', handler);
    router.get('/api/:version/games', handler);
    router.use('/api', handler);
    router.get('/api/v1/games/:slug', handler);
    router.get(/^\/api\/v1\/g.*$/, handler);
    router.post('/api/v1/games/:slug', handler);
    router.get('/health', handler);
    const library = (path: string, method: string) => Router.prototype.match.call(router, path, method);
    const paths = ['/api/v1/games', '/api/v2/games', '/api/v1/games/x', '/api/v1/gx', '/api', '/health', '/nope'];
    for (const path of paths) {
      for (const method of METHODS) {
        const ours = router.match(path, method);
        expect(ours.pathAndMethod, `${method} ${path}`).to.have.ordered.members(library(path, method).pathAndMethod);
        expect(ours.route).to.equal(library(path, method).route);
      }
    }
    expect(router.match('/api/v1/games', 'GET').pathAndMethod).to.have.length(4);
  });
});
