// Player routes and a session that still owes its second factor. The spec's rule 9 (general.md,
// Authentication) names the routes that refuse such a session (export, data deletion, layout images,
// Arcade developer routes); player routes are not among them, so it may read its grants and listen to its
// plays. Every write under /api/v1 still waits for the factor (api/middleware/access.ts): agreeing,
// renaming, revoking and launching answer 403 `mfa_required`.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { createApp } from '../../shared/keys/apps.js';
import { currentTotp } from '../../shared/auth/totp.js';
import { seededGame } from '../helpers/arcade.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { openEventStream } from '../helpers/event-stream.js';
import { signedInClient } from '../helpers/factories.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

type Res = { status: number; body: { error?: { reason?: string } } };
const refusal = (res: Res) => [res.status, res.body.error?.reason];
const GRANTS = '/api/v1/account/arcade/grants';

describe('Arcade: player routes and the second factor', () => {
  useCleanDatabase();
  const app = useTestApp();

  it('lets a session owing its second factor read its grants and its play stream, and change nothing', async () => {
    const developer = await signedInClient(app.client);
    const made = await createApp(db(), developer.account.id, { name: 'owed' });
    await seededGame(developer.account.id, made.id, 'owed-rocks', { listed: true });

    // One session passes the factor, agrees to the game and opens it.
    const player = await signedInClient(app.client, { twoFactor: true });
    expect(refusal(await player.site.get(GRANTS))).to.deep.equal([200, undefined]);
    const passed = await player.site.post('/api/auth/two-factor', { code: currentTotp(player.totpSecret!) });
    expect(passed.status).to.equal(200);
    expect((await player.site.post(GRANTS, { app_id: made.id, nickname: 'Pilota' })).status).to.equal(201);
    const launched = await player.site.post('/api/v1/arcade/apps/owed-rocks/launch');
    expect(launched.status).to.equal(200);
    const iid = launched.body.data.instance_id as string;

    // Another session of the same account signs in with the password alone: it owes the factor.
    const owing = new SiteClient(app.client);
    const signedIn = await owing.post('/api/auth/sign-in', { email: player.email, password: player.password });
    expect(signedIn.body.data.second_factor_required).to.equal(true);

    const grants = await owing.get(GRANTS);
    expect(grants.status).to.equal(200);
    expect(grants.body.data.map((g: { app_id: string; nickname: string }) => [g.app_id, g.nickname])).to.deep.equal([
      [made.id, 'Pilota'],
    ]);
    const stream = openEventStream(app.client.baseUrl, `/api/v1/arcade/instances/${iid}/stream`, owing);
    try {
      expect((await stream.head).status).to.equal(200);
      await until(async () => stream.events.length > 0);
      expect(stream.events[0].event).to.equal('ready');
      expect(stream.events[0].data).to.include({ instance_id: iid, granted: true, nickname: 'Pilota' });
    } finally {
      stream.close();
    }

    const writes: Array<[string, () => Promise<Res>]> = [
      ['agree', () => owing.post(GRANTS, { app_id: made.id, nickname: 'Outra' })],
      ['rename', () => owing.patch(`${GRANTS}/${made.id}`, { nickname: 'Outra' })],
      ['revoke', () => owing.delete(`${GRANTS}/${made.id}`)],
      ['launch', () => owing.post('/api/v1/arcade/apps/owed-rocks/launch')],
    ];
    for (const [write, call] of writes) expect(refusal(await call()), write).to.deep.equal([403, 'mfa_required']);
    const grant = await db()('arcade_grants').where({ account_id: player.account.id }).first();
    expect([grant.nickname, grant.revoked_at]).to.deep.equal(['Pilota', null]);
    expect(await db()('arcade_instances').where({ account_id: player.account.id })).to.have.length(1);
  });
});
