// A removed game takes no more moves (spec arcade.md: remove is permanent; DECISIONS: Fine print): after
// POST .../remove every developer move on it is 409 `app_removed` and changes nothing (no live release, no
// event, no mail, no origin claimed, no check spent), its reads still answer with status `removed`, and
// moderation's queue leaves its submissions out. A move that read the game before the removal is refused
// inside its own transaction too.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { createApp } from '../../shared/keys/apps.js';
import { createRelease, withdrawRelease } from '../../shared/arcade/releases.js';
import type { ArcadeApp, ReleaseInput } from '../../shared/arcade/rows.js';
import { arcadeDeveloper, enabledGame, listingBody, releaseColumns, seededGame } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { signedInClient } from '../helpers/factories.js';
import { staffMember } from '../helpers/moderation.js';
import { useTestApp } from '../helpers/test-app.js';

type Res = { status: number; body: { error?: { code?: string; reason?: string } } };
const refusal = (res: Res) => [res.status, res.body.error?.code, res.body.error?.reason];
const REMOVED = [409, 'conflict', 'app_removed'];

/** A release body the release rules accept (nothing is fetched: the refusal comes first). */
const releaseBody = (origin: string) => ({
  entry_url: `${origin}/play/`,
  capabilities: [],
  scopes: [],
  orientation: 'landscape',
  platforms: ['desktop'],
  third_parties: [],
  data_events_url: null,
  notes: '',
});

describe('Arcade: a removed game', () => {
  useCleanDatabase();
  const app = useTestApp();

  /**
   * A game with a submitted store page, a draft release, a submitted one (its origin claimed) and an
   * approved one not yet live; then removed through the route.
   */
  async function removedGame(slug: string) {
    const origin = `https://${slug}.example.com`;
    const dev = await arcadeDeveloper(app.client);
    await enabledGame(dev, slug);
    const base = `/api/v1/account/apps/${dev.app.id}/arcade`;
    expect((await dev.site.put(`${base}/listing`, listingBody())).status).to.equal(200);
    expect((await dev.site.post(`${base}/listing/submit`)).status).to.equal(200);
    await db()('arcade_claims').insert({ kind: 'origin', value: origin, app_id: dev.app.id });
    const [draft, submitted, approved] = await db()('arcade_releases')
      .insert([
        { app_id: dev.app.id, number: 1, status: 'draft', ...releaseColumns(`https://draft.${slug}.example.com`) },
        { app_id: dev.app.id, number: 2, status: 'submitted', submitted_at: new Date(), ...releaseColumns(origin) },
        { app_id: dev.app.id, number: 3, status: 'approved', approved_at: new Date(), ...releaseColumns(origin) },
      ])
      .returning('id');
    const before = (await db()('arcade_apps').where({ app_id: dev.app.id }).first()) as ArcadeApp;
    const removed = await dev.site.post(`${base}/remove`);
    expect(removed.status, removed.text).to.equal(200);
    expect(removed.body.data.app.status).to.equal('removed');
    return {
      dev,
      base,
      origin,
      before,
      draft: draft.id as string,
      submitted: submitted.id as string,
      approved: approved.id,
    };
  }

  it('refuses every developer move with 409 app_removed, and none of them changes anything', async () => {
    const { dev, base, origin, draft, submitted, approved } = await removedGame('gone-rocks');
    const appId = dev.app.id as string;
    const mailsBefore = await db()('email_outbox').where({ to_address: dev.email }).count<{ count: string }[]>();
    const eventsBefore = await db()('arcade_events').where({ app_id: appId }).pluck('kind');
    const form = new FormData();
    form.append('kind', 'icon');
    form.append('position', '0');
    form.append('file', new Blob([Buffer.from('not read')], { type: 'image/png' }), 'icon.png');

    const moves: Array<[string, () => Promise<Res>]> = [
      ['save the store page', () => dev.site.put(`${base}/listing`, listingBody({ name: 'Back Again' }))],
      ['submit the store page', () => dev.site.post(`${base}/listing/submit`)],
      ['upload an image', () => dev.site.request('POST', `${base}/media`, { raw: form })],
      ['empty a slot', () => dev.site.delete(`${base}/media?kind=icon&position=0`)],
      ['create a release', () => dev.site.post(`${base}/releases`, releaseBody('https://new.gone-rocks.example.com'))],
      ['change a draft', () => dev.site.put(`${base}/releases/${draft}`, releaseBody(origin))],
      ['check a release', () => dev.site.post(`${base}/releases/${draft}/check`)],
      ['submit a release', () => dev.site.post(`${base}/releases/${draft}/submit`)],
      ['withdraw a release', () => dev.site.post(`${base}/releases/${submitted}/withdraw`)],
      ['make a release live', () => dev.site.post(`${base}/releases/${approved}/live`)],
      ['remove it again', () => dev.site.post(`${base}/remove`)],
    ];
    for (const [move, call] of moves) expect(refusal(await call()), move).to.deep.equal(REMOVED);

    const game = await db()('arcade_apps').where({ app_id: appId }).first();
    expect([game.status, game.live_release_id]).to.deep.equal(['removed', null]);
    const releases = await db()('arcade_releases').where({ app_id: appId }).orderBy('number').pluck('status');
    expect(releases).to.deep.equal(['draft', 'submitted', 'approved']);
    const listings = await db()('arcade_listings').where({ app_id: appId }).pluck('status');
    expect(listings).to.deep.equal(['submitted']);
    // No origin claimed by the refused submit, no check spent, no event, no mail.
    const origins = await db()('arcade_claims').where({ kind: 'origin', app_id: appId }).pluck('value');
    expect(origins).to.deep.equal([origin]);
    expect(await db()('arcade_checks').where({ app_id: appId })).to.have.length(0);
    expect(await db()('arcade_events').where({ app_id: appId }).pluck('kind')).to.deep.equal(eventsBefore);
    expect(await db()('email_outbox').where({ to_address: dev.email }).count()).to.deep.equal(mailsBefore);
  });

  it('still answers its reads, with status removed', async () => {
    const { dev, base } = await removedGame('gone-reads');
    const record = await dev.site.get(base);
    expect(record.status).to.equal(200);
    expect(record.body.data.app).to.deep.include({ slug: 'gone-reads', status: 'removed' });
    expect(record.body.data.app.events[0].kind).to.equal('removed');
    const releases = await dev.site.get(`${base}/releases`);
    expect(releases.status).to.equal(200);
    expect(releases.body.data.map((r: { number: number }) => r.number)).to.deep.equal([3, 2, 1]);
    expect((await dev.site.get(`${base}/data-events`)).status).to.equal(200);
  });

  it('leaves its submissions out of moderation’s queue, and keeps everyone else’s', async () => {
    const { dev } = await removedGame('gone-queue');
    const other = await signedInClient(app.client);
    const otherApp = await createApp(db(), other.account.id, { name: 'other' });
    await seededGame(other.account.id, otherApp.id, 'still-here');
    const [waiting] = await db()('arcade_releases')
      .insert({
        app_id: otherApp.id,
        number: 1,
        status: 'in_review',
        submitted_at: new Date(),
        ...releaseColumns('https://still-here.example.com'),
      })
      .returning('id');
    const [page] = await db()('arcade_listings')
      .insert({
        app_id: otherApp.id,
        number: 1,
        status: 'submitted',
        fields: JSON.stringify(listingBody()),
        submitted_at: new Date(),
      })
      .returning('id');
    const moderator = await staffMember(app.client, 'mod_removed');
    const queue = await moderator.site.get('/api/v1/moderation/arcade/queue');
    expect(queue.status).to.equal(200);
    expect(queue.body.data.releases.map((r: { id: string }) => r.id)).to.deep.equal([waiting.id]);
    expect(queue.body.data.listings.map((l: { id: string }) => l.id)).to.deep.equal([page.id]);
    const appIds = [...queue.body.data.releases, ...queue.body.data.listings].map((s: { app_id: string }) => s.app_id);
    expect(appIds).to.not.include(dev.app.id);
  });

  it('refuses, inside its transaction, a move that read the game before the removal', async () => {
    const { before, submitted } = await removedGame('gone-late');
    // As the release rules leave a body (they are not what this is about).
    const input: ReleaseInput = {
      ...releaseBody('https://late.gone-late.example.com'),
      entry_origin: 'https://late.gone-late.example.com',
    };
    for (const late of [() => createRelease(db(), before, input), () => withdrawRelease(db(), before, submitted)]) {
      const error = await late().then(
        () => null,
        (thrown: { code?: string; members?: { reason?: string } }) => thrown,
      );
      expect([error?.code, error?.members?.reason]).to.deep.equal(['conflict', 'app_removed']);
    }
    expect(await db()('arcade_releases').where({ app_id: before.app_id })).to.have.length(3);
  });
});
