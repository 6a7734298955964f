// The generated TypeScript client (client/) against the real server, walking the README's "Calling the API":
// sign-up, an app, its scopes and a key through the site's session (those routes refuse keys), then with
// the key and the client: /me, a library page, a catalog search, a follow, and a typed error. The answers are
// read through their generated types, so this file only compiles while the reference declares them.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createJogatinaClient, type components } from '../../client/index.js';
import { CLIENT_DIR } from '../../scripts/generate-client.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { PASSWORD, uniqueEmail } from '../helpers/factories.js';
import * as people from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

describe('the TypeScript client (client/) walks "Calling the API"', () => {
  useCleanDatabase();
  const app = useTestApp();
  let token: string;
  let gameId: number;

  before(async () => {
    // Someone to read and follow (demo_3 in the README), with a game on their shelf that the catalog knows.
    const [row] = await db()('games')
      .insert({
        slug: 'the-legend-of-zelda-client-edition',
        name: 'The Legend of Zelda: Client Edition',
        type: 0,
        popularity: 1,
        release_date: '2015-06-01',
        release_year: 2015,
        igdb_id: 900000 + randomBytes(2).readUInt16BE(),
      })
      .returning('id');
    gameId = row.id;
    const shelf = await people.namedPerson(app.client, 'demo_3');
    await people.libraryEntry(shelf.account.id, { game_id: gameId, status: 'COMPLETED', rating: 90 });
    await people.libraryEntry(shelf.account.id, { status: 'PLAYING', playing: true });
    await people.libraryEntry(shelf.account.id, { wishlist: true });

    // 1. An account and its session cookie, from the site's own Origin (curl -c jar -H "Origin: $B").
    const site = new SiteClient(app.client);
    const signUp = await site.post('/api/auth/sign-up', {
      email: uniqueEmail('integrator'),
      password: PASSWORD,
      username: 'me_first',
    });
    expect(signUp.status, signUp.text).to.equal(201);
    // 2. An app, then the scopes its keys may use.
    const created = await site.post('/api/v1/account/apps', { name: 'My tracker' });
    expect(created.status, created.text).to.equal(201);
    const scopes = ['profile.read', 'library.read', 'social.read', 'catalog.read', 'profile.write'];
    const patched = await site.patch(`/api/v1/account/apps/${created.body.data.id}`, { scopes });
    expect(patched.status, patched.text).to.equal(200);
    // 3. A key: data.token is shown this once.
    const key = await site.post(`/api/v1/account/apps/${created.body.data.id}/keys`, {
      name: 'laptop',
      expires_in_days: 90,
    });
    expect(key.status, key.text).to.equal(201);
    token = key.body.data.token;
    expect(token).to.match(/^jgt_live_[0-9a-f]{32}$/);
  });

  it('GET /me: who the key acts for, typed', async () => {
    const jogatina = createJogatinaClient(app.client.baseUrl, { key: token });
    const { data, error, response } = await jogatina.GET('/api/v1/me');
    expect(error).to.equal(undefined);
    expect(response.status).to.equal(200);
    const username: string | null = data!.data.account.username;
    expect(username).to.equal('me_first');
    expect(data!.data.key?.scopes).to.include('library.read');
    expect(response.headers.get('x-ratelimit-resource')).to.equal('read');
    // Never called: the compiler refuses a path the reference does not have, and a member an answer lacks.
    const _refused = async () => {
      // @ts-expect-error: no such route in the reference
      await jogatina.GET('/api/v1/no-such-route');
      // @ts-expect-error: /me answers data.account.username, not data.username
      return (await jogatina.GET('/api/v1/me')).data?.data.username;
    };
  });

  it('a library page, a catalog search and a follow, each read through its generated type', async () => {
    const jogatina = createJogatinaClient(app.client.baseUrl, { key: token });

    const library = await jogatina.GET('/api/v1/profiles/{username}/library', {
      params: { path: { username: 'demo_3' }, query: { limit: 2 } },
    });
    if (!library.data) throw new Error(`library: ${JSON.stringify(library.error)}`);
    const entries: components['schemas']['LibraryEntry'][] = library.data.data;
    expect(entries).to.have.length(2);
    expect(library.data.page.total_items).to.equal(3);
    expect(library.data.profile.username).to.equal('demo_3');

    // Lists go comma-separated, as the reference declares them (style form, explode false).
    const search = await jogatina.GET('/api/v1/games', {
      params: { query: { q: 'zelda', sort: 'rating', types: [0, 8] } },
    });
    if (!search.data) throw new Error(`search: ${JSON.stringify(search.error)}`);
    const games: components['schemas']['Game'][] = search.data.data;
    expect(games.map((game) => game.slug)).to.deep.equal(['the-legend-of-zelda-client-edition']);
    expect(games[0].id).to.equal(gameId);
    expect(new URL(search.response.url).searchParams.get('types')).to.equal('0,8');
    expect(search.response.headers.get('x-ratelimit-resource')).to.equal('catalog');

    const follow = await jogatina.PUT('/api/v1/social/following/{username}', {
      params: { path: { username: 'demo_3' } },
    });
    if (!follow.data) throw new Error(`follow: ${JSON.stringify(follow.error)}`);
    const { following, requested }: { following: boolean; requested: boolean } = follow.data.data;
    expect({ following, requested }).to.deep.equal({ following: true, requested: false });
  });

  it('an error answer is typed too: { error: { code, field, reason } }', async () => {
    const jogatina = createJogatinaClient(app.client.baseUrl, { key: token });
    const { data, error, response } = await jogatina.GET('/api/v1/profiles/{username}/library', {
      params: { path: { username: 'demo_3' }, query: { limit: 5000 } },
    });
    expect(data).to.equal(undefined);
    expect(response.status).to.equal(400);
    expect(error?.error.code).to.equal('invalid_request');
    expect(error?.error).to.include({ field: 'limit', reason: 'out_of_range' });
  });

  it('its client/openapi.json is the document the server serves', async () => {
    const served = await app.client.get('/api/v1/openapi.json');
    const committed = await readFile(path.join(CLIENT_DIR, 'openapi.json'), 'utf8');
    expect(served.body.servers).to.deep.equal([{ url: 'http://localhost:3000' }]);
    expect(JSON.stringify(served.body) === JSON.stringify(JSON.parse(committed)), 'npm run client:generate').to.be.true;
  });

  it('without a key it reads public routes, and a bad key is 401 invalid_key', async () => {
    const anonymous = createJogatinaClient(app.client.baseUrl);
    const page = await anonymous.GET('/api/v1/profiles/{username}/library', {
      params: { path: { username: 'demo_3' } },
    });
    expect(page.data?.data).to.have.length(3);

    const wrong = createJogatinaClient(app.client.baseUrl, { key: `jgt_live_${'0'.repeat(32)}` });
    const me = await wrong.GET('/api/v1/me');
    expect(me.response.status).to.equal(401);
    expect(me.error?.error.code).to.equal('invalid_key');
  });
});
