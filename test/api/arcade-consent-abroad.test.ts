// Whether the consent says data is processed abroad (spec arcade.md: Store page draft, controller_country:
// "outside Brazil the consent says data is processed abroad"; DECISIONS: Fine print): the store page and
// every grant answer carry `processed_abroad`, true when the approved store page's controller_country is
// not BR, and true when there is no approved store page to say where the controller is.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { createApp } from '../../shared/keys/apps.js';
import { arcadeDeveloper, enabledGame, listingBody, seededGame } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { signedInClient } from '../helpers/factories.js';
import { useTestApp } from '../helpers/test-app.js';

const GRANTS = '/api/v1/account/arcade/grants';

describe('Arcade: data processed abroad', () => {
  useCleanDatabase();
  const app = useTestApp();

  /** A listed game whose approved store page names the controller's country. */
  async function listedGame(slug: string, country: string) {
    const developer = await signedInClient(app.client);
    const made = await createApp(db(), developer.account.id, { name: slug });
    await seededGame(developer.account.id, made.id, slug, { listed: true });
    await db()('arcade_listings')
      .where({ app_id: made.id, status: 'approved' })
      .update({ fields: JSON.stringify(listingBody({ name: slug, controller_country: country })) });
    return made.id as string;
  }

  it('says so on the store page when the controller is outside Brazil, and not for Brazil', async () => {
    await listedGame('home-rocks', 'BR');
    await listedGame('far-rocks', 'PT');
    const home = (await app.client.get('/api/v1/arcade/apps/home-rocks')).body.data;
    const far = (await app.client.get('/api/v1/arcade/apps/far-rocks')).body.data;
    expect([home.controller_country, home.processed_abroad]).to.deep.equal(['BR', false]);
    expect([far.controller_country, far.processed_abroad]).to.deep.equal(['PT', true]);
  });

  it('says so in every grant answer: agreeing, renaming and the list', async () => {
    const home = await listedGame('home-grant', 'BR');
    const far = await listedGame('far-grant', 'US');
    const player = await signedInClient(app.client);
    const agreedFar = await player.site.post(GRANTS, { app_id: far, nickname: 'Viajante' });
    expect(agreedFar.status).to.equal(201);
    expect(agreedFar.body.data.grant).to.deep.include({ app_id: far, processed_abroad: true });
    const agreedHome = await player.site.post(GRANTS, { app_id: home, nickname: 'Caseiro' });
    expect(agreedHome.body.data.grant).to.deep.include({ app_id: home, processed_abroad: false });
    const renamed = await player.site.patch(`${GRANTS}/${far}`, { nickname: 'Viajante 2' });
    expect(renamed.body.data.grant).to.deep.include({ nickname: 'Viajante 2', processed_abroad: true });
    const listed = (await player.site.get(GRANTS)).body.data;
    const abroad = Object.fromEntries(
      listed.map((g: { app_id: string; processed_abroad: boolean }) => [g.app_id, g.processed_abroad]),
    );
    expect(abroad).to.deep.equal({ [far]: true, [home]: false });
  });

  it('counts a game with no approved store page as abroad: nothing says its data stays in Brazil', async () => {
    const dev = await arcadeDeveloper(app.client);
    await enabledGame(dev, 'no-page-yet');
    const agreed = await dev.site.post(GRANTS, { app_id: dev.app.id, nickname: 'Owner' });
    expect(agreed.status).to.equal(201);
    expect(agreed.body.data.grant).to.deep.include({ name: null, processed_abroad: true });
  });
});
