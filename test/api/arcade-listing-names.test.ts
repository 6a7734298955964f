// Reserved words in a store page draft, through the real route (spec arcade.md: Store page draft `name`;
// DECISIONS, fine print: the service's own name is reserved inside a word too, case, accents and
// look-alike letters folded). official, support and the like stay whole-word rules.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { arcadeDeveloper, enabledGame, listingBody } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { useTestApp } from '../helpers/test-app.js';

type Res = { status: number; text: string; body: { error?: { code?: string; reason?: string; field?: string } } };
const refusal = (res: Res) => [res.status, res.body.error?.code, res.body.error?.reason, res.body.error?.field];

describe('Arcade: the service’s name and reserved words in a store page', function () {
  this.timeout(30000);
  useCleanDatabase();
  const app = useTestApp();

  async function listing() {
    const dev = await arcadeDeveloper(app.client);
    await enabledGame(dev, `names-${dev.app.id.slice(0, 8)}`);
    const put = (overrides: Record<string, unknown>) =>
      dev.site.put(`/api/v1/account/apps/${dev.app.id}/arcade/listing`, listingBody(overrides));
    const stored = async () => db()('arcade_listings').where({ app_id: dev.app.id });
    return { put, stored };
  }

  it('refuses the name inside a word of the name (name_reserved) or the tagline (tagline_reserved)', async () => {
    const { put, stored } = await listing();
    for (const name of ['Jogatinas', 'JogatinaRacer', 'J0gatina', 'JOGAТINA Kart', 'Jögätinä']) {
      expect(refusal(await put({ name })), name).to.deep.equal([
        400,
        'invalid_request',
        'fields_invalid',
        'name_reserved',
      ]);
    }
    expect(refusal(await put({ tagline: 'The best of SuperJogatina' }))).to.deep.equal([
      400,
      'invalid_request',
      'fields_invalid',
      'tagline_reserved',
    ]);
    expect(await stored()).to.have.length(0);
  });

  it('keeps official and support whole-word rules, and accepts other words', async () => {
    const { put, stored } = await listing();
    expect(refusal(await put({ name: 'Official Racer' }))).to.deep.equal([
      400,
      'invalid_request',
      'fields_invalid',
      'name_reserved',
    ]);
    expect(refusal(await put({ tagline: 'Support desk game' }))).to.deep.equal([
      400,
      'invalid_request',
      'fields_invalid',
      'tagline_reserved',
    ]);
    for (const name of ['Officially Fun', 'Supporting Cast', 'Joga Tina']) {
      const saved = await put({ name, tagline: 'Jogos da Tina' });
      expect(saved.status, saved.text).to.equal(200);
      expect(saved.body.data.listing.draft.name).to.equal(name);
    }
    expect(await stored()).to.have.length(1);
  });
});
