// The demo Arcade game of a first start: listed, in the directory, asking for identify with an events URL,
// and launchable by a player who agrees; seeding it again adds nothing.
import { expect } from 'chai';
import { config } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import { DEMO_GAME_SLUG, seedDemoArcadeGame } from '../../db/seeds/demo-game.js';
import { sweepRechecks } from '../../shared/arcade/rechecks.js';
import { ensureSigningKeys } from '../../shared/identity/signing-keys.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { signedInClient } from '../helpers/factories.js';
import { useTestApp } from '../helpers/test-app.js';

describe('Arcade: the demo game', () => {
  useCleanDatabase();
  const app = useTestApp();

  it('is listed with a store page, asks for identify, launches for a player who agrees, and seeds once', async () => {
    expect(await seedDemoArcadeGame(db())).to.equal(true);
    expect(await seedDemoArcadeGame(db())).to.equal(false);
    expect(await db()('arcade_apps')).to.have.length(1);
    const directory = await app.client.get('/api/v1/arcade/apps');
    expect(directory.body.data.map((item: { slug: string }) => item.slug)).to.deep.equal([DEMO_GAME_SLUG]);
    const page = (await app.client.get(`/api/v1/arcade/apps/${DEMO_GAME_SLUG}`)).body.data;
    expect(page).to.deep.include({ name: 'Demo Rocks', scopes: ['identify'], host: 'arcade-demo.jogatina.example' });
    await ensureSigningKeys(db(), config().secret);
    const player = await signedInClient(app.client);
    const launch = () => player.site.post(`/api/v1/arcade/apps/${DEMO_GAME_SLUG}/launch`);
    expect((await launch()).body.error.reason).to.equal('grant_required');
    await player.site.post('/api/v1/account/arcade/grants', { app_id: page.app_id, nickname: 'Newcomer' });
    const launched = await launch();
    expect(launched.status).to.equal(200);
    expect(launched.body.data.identity).to.be.a('string');
  });

  it('is left out of the schedule of re-checks (its reserved host never answers; checks would hide it)', async () => {
    await seedDemoArcadeGame(db());
    expect(await sweepRechecks(db())).to.equal(0);
    expect((await db()('arcade_apps').where({ slug: DEMO_GAME_SLUG }).first()).status).to.equal('listed');
  });
});
