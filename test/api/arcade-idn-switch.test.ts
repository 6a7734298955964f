// The operator's switch for internationalized host names (config ARCADE_IDN_HOSTS; spec arcade.md: "`idn`
// while such names are not accepted"), through the real routes, in both states: accepted by default (the
// IDN rules alone judge them), and refused with `url_denied` detail `idn` for the entry, data events and
// third-party URLs of a release and for the development URL, a saved one included. Nothing here resolves
// a name: releases are judged as text, and the development URLs are on the owner's machine.
import { expect } from 'chai';
import { resetConfigForTests } from '../../shared/platform/config.js';
import { db } from '../../shared/platform/db/knex.js';
import { arcadeDeveloper, enabledGame, listingBody, releaseBody } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { startFakeHost, type FakeHost } from '../helpers/fake-host.js';
import { useTestApp } from '../helpers/test-app.js';

type Res = { status: number; text: string; body: { error?: { reason?: string; field?: string; detail?: unknown } } };
const refusal = (res: Res) => [res.status, res.body.error?.reason, res.body.error?.detail, res.body.error?.field];

/** Runs `body` with ARCADE_IDN_HOSTS set, as an operator would start the service. */
async function withIdnHosts(value: string, body: () => Promise<void>): Promise<void> {
  const before = process.env.ARCADE_IDN_HOSTS;
  process.env.ARCADE_IDN_HOSTS = value;
  resetConfigForTests();
  try {
    await body();
  } finally {
    if (before === undefined) delete process.env.ARCADE_IDN_HOSTS;
    else process.env.ARCADE_IDN_HOSTS = before;
    resetConfigForTests();
  }
}

describe('Arcade: internationalized host names, accepted or refused by the operator', function () {
  this.timeout(30000);
  useCleanDatabase();
  const app = useTestApp();
  let host: FakeHost;

  before(async () => {
    host = await startFakeHost();
  });
  after(() => host.close());

  async function game(slug: string) {
    const dev = await arcadeDeveloper(app.client);
    await enabledGame(dev, slug);
    const base = `/api/v1/account/apps/${dev.app.id}/arcade`;
    return { dev, base };
  }

  it('accepts them by default, stored in ASCII', async () => {
    const { dev, base } = await game('idn-accepted');
    const created = await dev.site.post(
      `${base}/releases`,
      releaseBody(host, {
        entry_url: 'https://bücher.de/spiel/',
        scopes: ['identify'],
        data_events_url: 'https://xn--bcher-kva.de/events',
        third_parties: [{ origin: 'https://schrift.bücher.de', purpose: 'Fonts.' }],
      }),
    );
    expect(created.status, created.text).to.equal(201);
    expect(created.body.data.release).to.deep.include({
      entry_url: 'https://xn--bcher-kva.de/spiel/',
      data_events_url: 'https://xn--bcher-kva.de/events',
      third_parties: [{ origin: 'https://schrift.xn--bcher-kva.de', purpose: 'Fonts.' }],
    });
    // The IDN rules still apply: look-alikes of an ASCII name are refused for what they are.
    const lookalike = await dev.site.post(`${base}/releases`, releaseBody(host, { entry_url: 'https://аррӏе.com/' }));
    expect(refusal(lookalike)).to.deep.equal([400, 'url_denied', 'idn_confusable', 'entry_url']);
  });

  it('refuses them with detail idn, naming the field, once switched off; ASCII names still pass', async () => {
    const { dev, base } = await game('idn-refused');
    const post = (overrides: Record<string, unknown>) =>
      dev.site.post(`${base}/releases`, releaseBody(host, overrides));
    await withIdnHosts('refuse', async () => {
      expect(refusal(await post({ entry_url: 'https://bücher.de/spiel/' }))).to.deep.equal([
        400,
        'url_denied',
        'idn',
        'entry_url',
      ]);
      // Punycode is the same name.
      expect(refusal(await post({ entry_url: 'https://xn--bcher-kva.de/spiel/' }))).to.deep.equal([
        400,
        'url_denied',
        'idn',
        'entry_url',
      ]);
      expect(
        refusal(await post({ scopes: ['identify'], data_events_url: 'https://xn--bcher-kva.de/events' })),
      ).to.deep.equal([400, 'url_denied', 'idn', 'data_events_url']);
      expect(
        refusal(await post({ third_parties: [{ origin: 'https://schrift.bücher.de', purpose: 'Fonts.' }] })),
      ).to.deep.equal([400, 'url_denied', 'idn', 'third_parties.0.origin']);
      // While refused, that is the answer even for a name the IDN rules would refuse anyway.
      expect(refusal(await post({ entry_url: 'https://аррӏе.com/' }))).to.deep.equal([
        400,
        'url_denied',
        'idn',
        'entry_url',
      ]);

      const ascii = await post({});
      expect(ascii.status, ascii.text).to.equal(201);
      // Replacing a draft is judged the same way.
      const id = ascii.body.data.release.id as string;
      const replaced = await dev.site.put(
        `${base}/releases/${id}`,
        releaseBody(host, { entry_url: 'https://bücher.de/' }),
      );
      expect(refusal(replaced)).to.deep.equal([400, 'url_denied', 'idn', 'entry_url']);
    });
  });

  it('refuses a development URL on such a name, and blocks a saved one until they are accepted again', async () => {
    const { dev, base } = await game('idn-override');
    await dev.site.put(`${base}/listing`, listingBody());
    const created = await dev.site.post(`${base}/releases`, releaseBody(host));
    const releaseId = created.body.data.release.id as string;
    const url = 'http://jôgo.localhost:5173/';
    const saved = await dev.site.put(`${base}/override`, { url, release_id: releaseId });
    expect(saved.status, saved.text).to.equal(200);
    expect(saved.body.data.override).to.deep.include({ host: 'xn--jgo-kna.localhost:5173', ready: true });

    await withIdnHosts('refuse', async () => {
      // A new save is refused and spends none of the day's saves.
      const again = await dev.site.put(`${base}/override`, { url, release_id: releaseId });
      expect(refusal(again)).to.deep.equal([400, 'url_denied', 'idn', 'url']);
      const shown = (await dev.site.get(`${base}/override`)).body.data.override;
      expect(shown).to.deep.include({ ready: false, blocked_reason: 'url_denied', changes_left: 19 });
      expect(refusal(await dev.site.post(`${base}/override/launch`))).to.deep.equal([400, 'url_denied', 'idn', 'url']);
      // An ASCII name on the same machine saves and opens.
      const ascii = await dev.site.put(`${base}/override`, {
        url: 'http://jogo.localhost:5173/',
        release_id: releaseId,
      });
      expect(ascii.status, ascii.text).to.equal(200);
      expect((await dev.site.post(`${base}/override/launch`)).status).to.equal(200);
    });

    // Accepted again: the Unicode name saves and opens.
    expect((await dev.site.put(`${base}/override`, { url, release_id: releaseId })).status).to.equal(200);
    const launched = await dev.site.post(`${base}/override/launch`);
    expect(launched.status, launched.text).to.equal(200);
    expect(launched.body.data.url).to.equal('http://xn--jgo-kna.localhost:5173/');
    expect(await db()('arcade_overrides').where({ app_id: dev.app.id }).first('url')).to.deep.equal({
      url: 'http://xn--jgo-kna.localhost:5173/',
    });
  });
});
