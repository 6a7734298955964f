// Minerals, verification and levels of people.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import { useTestApp } from '../helpers/test-app.js';
import { namedPerson, type Visibility } from '../helpers/people.js';

describe('people standing (/minerals, /verification, /profiles/levels)', () => {
  useCleanDatabase();
  const app = useTestApp();

  const person = (username: string, visibility?: Visibility) => namedPerson(app.client, username, visibility);

  it('answers balances and level, the starting point for someone who never earned any', async () => {
    const rich = await person('rich_one');
    await person('new_one');
    await db()('mineral_balances').insert({ account_id: rich.account.id, balance: 1234, level: 7 });
    expect((await app.client.get('/api/v1/profiles/rich_one/minerals')).body.data).to.deep.equal({
      username: 'rich_one',
      balance: 1234,
      level: 7,
    });
    expect((await app.client.get('/api/v1/profiles/new_one/minerals')).body.data).to.deep.include({
      balance: 0,
      level: 1,
    });
    expect((await app.client.get('/api/v1/profiles/nobody_here/minerals')).status).to.equal(404);
  });

  it('says who vouched and when, by username or account id, and null for never verified', async () => {
    const voucher = await person('voucher');
    const badge = await person('badge_holder');
    await person('unverified');
    await db()('verifications').insert({ account_id: badge.account.id, vouched_by: voucher.account.id });
    const byName = await app.client.get('/api/v1/profiles/badge_holder/verification');
    expect(byName.body.data.vouched_by).to.equal('voucher');
    expect(byName.body.data.verified_at).to.match(/^\d{4}-/);
    const byId = await app.client.get(`/api/v1/profiles/${badge.account.id}/verification`);
    expect(byId.body.data).to.deep.equal(byName.body.data);
    expect((await app.client.get('/api/v1/profiles/unverified/verification')).body).to.deep.equal({ data: null });
    // No scope is needed, but a key must still be live.
    const { token } = await appWithKey(voucher.account.id, []);
    const keyed = await app.client.get('/api/v1/profiles/badge_holder/verification', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(keyed.status).to.equal(200);
    const bad = await app.client.get('/api/v1/profiles/badge_holder/verification', {
      headers: { authorization: 'Bearer nope' },
    });
    expect(bad.status).to.equal(401);
  });

  it('answers levels of 1 to 100 accounts in the order asked, leaving out unknown ones', async () => {
    const a = await person('level_a');
    const b = await person('level_b');
    await db()('mineral_balances').insert({ account_id: b.account.id, balance: 10, level: 3 });
    await db()('verifications').insert({ account_id: a.account.id });
    const unknown = '00000000-0000-4000-8000-000000000000';
    const res = await app.client.get(`/api/v1/profiles/levels?ids=${b.account.id},${unknown},${a.account.id}`);
    expect(res.body.data).to.deep.equal([
      { id: b.account.id, username: 'level_b', level: 3, verified: false },
      { id: a.account.id, username: 'level_a', level: 1, verified: true },
    ]);
    const many = Array.from({ length: 101 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    for (const query of ['', '?ids=', '?ids=not-an-id', `?ids=${many.join(',')}`]) {
      const refused = await app.client.get(`/api/v1/profiles/levels${query}`);
      expect(refused.status, query).to.equal(400);
      expect(refused.body.error.field, query).to.equal('ids');
    }
  });

  it('hides both sides of a block', async () => {
    const blocker = await person('blocker_std');
    const blocked = await person('blocked_std');
    await blocker.site.put('/api/v1/social/blocks/blocked_std');
    expect((await blocked.site.get('/api/v1/profiles/blocker_std/minerals')).status).to.equal(404);
    expect((await blocker.site.get('/api/v1/profiles/blocked_std/verification')).status).to.equal(404);
  });
});
