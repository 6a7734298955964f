// GET /profiles/{username}/connections: followers and following by timestamp cursor, as a reader may see.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';
import { namedPerson, type Visibility } from '../helpers/people.js';

describe('GET /profiles/{username}/connections', () => {
  useCleanDatabase();
  const app = useTestApp();

  const person = (username: string, visibility?: Visibility) => namedPerson(app.client, username, visibility);
  const names = (res: { body: { data: Array<{ username: string }> } }) => res.body.data.map((u) => u.username);

  it('pages followers newest first with a cursor that skips nothing, even within one millisecond', async () => {
    const star = await person('conn_star');
    const fans: string[] = [];
    for (let i = 0; i < 5; i += 1) fans.push((await person(`conn_fan_${i}`)).account.id);
    // Three follows in the same millisecond, apart only by microseconds.
    const base = '2026-01-01 10:00:00.123';
    await db()('follows').insert(
      fans.map((id, i) => ({
        follower_id: id,
        followee_id: star.account.id,
        created_at: i < 3 ? `${base}${i}00+00` : `2026-01-0${i} 09:00:00+00`,
      })),
    );
    const visitor = new SiteClient(app.client);
    const seen: string[] = [];
    let before: string | null = null;
    do {
      const query: string = `?limit=2${before ? `&before=${encodeURIComponent(before)}` : ''}`;
      const res = await visitor.get(`/api/v1/profiles/conn_star/connections${query}`);
      expect(res.status, res.text).to.equal(200);
      seen.push(...names(res));
      before = res.body.next_before;
      expect(res.body.page.has_more).to.equal(before !== null);
    } while (before);
    expect(seen).to.deep.equal(['conn_fan_4', 'conn_fan_3', 'conn_fan_2', 'conn_fan_1', 'conn_fan_0']);
    const following = await visitor.get('/api/v1/profiles/conn_fan_0/connections?tab=following');
    expect(names(following)).to.deep.equal(['conn_star']);
  });

  it('shows a private profile’s connections to followers only, and hides people blocked either way', async () => {
    const owner = await person('conn_private', 'PRIVATE');
    const follower = await person('conn_follower');
    const blocker = await person('conn_blocker');
    await follower.site.put('/api/v1/social/following/conn_private');
    await owner.site.put('/api/v1/social/follow-requests/conn_follower');
    await blocker.site.put('/api/v1/social/following/conn_private');
    await owner.site.put('/api/v1/social/follow-requests/conn_blocker');
    const stranger = await person('conn_stranger');
    expect((await stranger.site.get('/api/v1/profiles/conn_private/connections')).body.data).to.deep.equal([]);
    expect(names(await follower.site.get('/api/v1/profiles/conn_private/connections'))).to.have.members([
      'conn_follower',
      'conn_blocker',
    ]);
    await blocker.site.put('/api/v1/social/blocks/conn_follower');
    expect(names(await follower.site.get('/api/v1/profiles/conn_private/connections'))).to.deep.equal([
      'conn_follower',
    ]);
  });

  it('refuses bad parameters naming them', async () => {
    await person('conn_params');
    for (const [query, field] of [
      ['tab=friends', 'tab'],
      ['limit=0', 'limit'],
      ['limit=51', 'limit'],
      ['before=yesterday', 'before'],
      [`q=${'x'.repeat(81)}`, 'q'],
    ]) {
      const res = await app.client.get(`/api/v1/profiles/conn_params/connections?${query}`);
      expect(res.status, query).to.equal(400);
      expect(res.body.error.field, query).to.equal(field);
    }
  });
});
