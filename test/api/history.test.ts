// What a person looked at, recorded (DECISIONS: History): a session's successful reads of GET /games/{slug}
// and GET /profiles/{username}, never a key's, an anonymous one's, a refused one's or one's own profile;
// one row per thing, a repeat moving it to the top; the 500 newest shown, for 90 days (the retention purge
// removes the rest); `record_history` of PATCH /profile; written after the answer, so a slow or failing
// write neither delays nor fails the read. Reading and clearing: history-reads.test.ts.
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { purgeRetention } from '../../shared/retention/purge.js';
import { LocalMediaStorage } from '../../shared/platform/storage/local-media-storage.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import { recorded, setViewedAt, view, viewedAt, viewMarker } from '../helpers/history.js';
import { block, catalogGame, namedPerson, type NamedPerson } from '../helpers/people.js';
import { keyed, refused } from '../helpers/social-things.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

const DAY = 86_400_000;
/** The daily retention purge, run now (its media step has nothing to do here). */
const purge = () => purgeRetention(db(), new LocalMediaStorage(path.join(tmpdir(), 'history-purge'), 'http://x'));

describe('history: what is recorded', () => {
  useCleanDatabase();
  const app = useTestApp();

  const gamePath = (game: { slug: string }) => `/api/v1/games/${game.slug}`;

  it('records a session’s reads of a game and a profile, and moves a repeat view to the top', async () => {
    const reader = await namedPerson(app.client, 'hi_rec_reader');
    const other = await namedPerson(app.client, 'hi_rec_other');
    const first = await catalogGame();
    const second = await catalogGame();
    await view(reader, gamePath(first), { game: first.id });
    await view(reader, '/api/v1/profiles/hi_rec_other', { profile: other.account.id });
    await view(reader, gamePath(second), { game: second.id });
    expect(await recorded(reader.account.id)).to.deep.equal([
      `game:${second.id}`,
      `profile:${other.account.id}`,
      `game:${first.id}`,
    ]);
    // The first game again: the same row, now the newest.
    await setViewedAt(reader.account.id, { game: first.id }, new Date(Date.now() - 3_600_000));
    await view(reader, gamePath(first), { game: first.id });
    const moved = await db()('view_history').where({ account_id: reader.account.id, game_id: first.id }).first();
    expect(Date.now() - moved.viewed_at.getTime()).to.be.below(60_000);
    expect(await recorded(reader.account.id)).to.deep.equal([
      `game:${first.id}`,
      `game:${second.id}`,
      `profile:${other.account.id}`,
    ]);
    // A profile read through a 30-day alias is the same person.
    await db()('usernames').insert({
      account_id: other.account.id,
      name: 'hi_rec_old_name',
      kind: 'alias',
      expires_at: new Date(Date.now() + 10 * DAY),
    });
    await view(reader, '/api/v1/profiles/hi_rec_old_name', { profile: other.account.id });
    expect((await recorded(reader.account.id))[0]).to.equal(`profile:${other.account.id}`);
    expect(await recorded(reader.account.id)).to.have.length(3);
    // Someone else's views are theirs.
    expect(await recorded(other.account.id)).to.deep.equal([]);
  });

  it('records nothing for a key, an anonymous reader, a 404, a person hidden by a block, or one’s own profile', async () => {
    const reader = await namedPerson(app.client, 'hi_not_reader');
    const other = await namedPerson(app.client, 'hi_not_other');
    const blocker = await namedPerson(app.client, 'hi_not_blocker');
    const blocked = await namedPerson(app.client, 'hi_not_blocked');
    await block(blocker.account.id, reader.account.id);
    await block(reader.account.id, blocked.account.id);
    const game = await catalogGame();

    const key = await keyed(app.client, reader.account.id, ['catalog.read', 'profile.read']);
    expect((await key.get(gamePath(game))).status).to.equal(200);
    expect((await key.get('/api/v1/profiles/hi_not_other')).status).to.equal(200);
    const anonymous = new SiteClient(app.client);
    expect((await anonymous.get(gamePath(game))).status).to.equal(200);
    expect((await anonymous.get('/api/v1/profiles/hi_not_other')).status).to.equal(200);
    refused(await reader.site.get('/api/v1/games/no-such-game-here'), 404, { code: 'not_found' });
    refused(await reader.site.get('/api/v1/profiles/nobody_has_this'), 404, { code: 'not_found' });
    refused(await reader.site.get('/api/v1/profiles/hi_not_blocker'), 404, { code: 'not_found' });
    refused(await reader.site.get('/api/v1/profiles/hi_not_blocked'), 404, { code: 'not_found' });
    expect((await reader.site.get('/api/v1/profiles/hi_not_reader')).status).to.equal(200);
    // The person's other reads of a person are not views of their profile.
    expect((await reader.site.get('/api/v1/profiles/hi_not_other/summary')).status).to.equal(200);

    const marker = await viewMarker(reader);
    expect(await recorded(reader.account.id)).to.deep.equal([`game:${marker}`]);
    // Nobody else's history took it either (the key's owner, the people read).
    const people = [other, blocker, blocked].map((person) => person.account.id);
    expect(await db()('view_history').whereIn('account_id', people)).to.deep.equal([]);
  });

  it('records nothing while record_history is false, keeps what was recorded, and shows the setting to the owner only', async () => {
    const reader = await namedPerson(app.client, 'hi_off_reader');
    await namedPerson(app.client, 'hi_off_other');
    const kept = await catalogGame();
    const unseen = await catalogGame();
    await view(reader, gamePath(kept), { game: kept.id });

    const own = await reader.site.get('/api/v1/profile');
    expect(own.body.data.record_history).to.equal(true);
    const off = await reader.site.patch('/api/v1/profile', { record_history: false });
    expect(off.status, off.text).to.equal(200);
    expect(off.body.data.record_history).to.equal(false);
    expect((await reader.site.get('/api/v1/profile')).body.data.record_history).to.equal(false);
    expect((await db()('accounts').where({ id: reader.account.id }).first()).record_history).to.equal(false);
    // Other fields change without touching it.
    const renamed = await reader.site.patch('/api/v1/profile', { display_name: 'Off' });
    expect(renamed.body.data).to.include({ display_name: 'Off', record_history: false });

    expect((await reader.site.get(gamePath(unseen))).status).to.equal(200);
    expect((await reader.site.get('/api/v1/profiles/hi_off_other')).status).to.equal(200);
    const on = await reader.site.patch('/api/v1/profile', { record_history: true });
    expect(on.body.data.record_history).to.equal(true);
    const marker = await viewMarker(reader);
    expect(await recorded(reader.account.id)).to.deep.equal([`game:${marker}`, `game:${kept.id}`]);

    // Visitors never see it.
    const visitor = await namedPerson(app.client, 'hi_off_visitor');
    const seen = await visitor.site.get('/api/v1/profiles/hi_off_reader');
    expect(seen.status).to.equal(200);
    expect(seen.body.data).to.not.have.property('record_history');
  });

  it('refuses a record_history that is not a boolean, and unknown fields', async () => {
    const reader = await namedPerson(app.client, 'hi_off_refused');
    for (const value of ['false', 0, null]) {
      refused(await reader.site.patch('/api/v1/profile', { record_history: value }), 400, {
        code: 'invalid_request',
        field: 'record_history',
        reason: 'wrong_type',
      });
    }
    refused(await reader.site.patch('/api/v1/profile', { record_histories: false }), 400, {
      field: 'record_histories',
      reason: 'unknown_field',
    });
    // Changing it is a profile write.
    const { token } = await appWithKey(reader.account.id, ['profile.read']);
    const headers = { authorization: `Bearer ${token}` };
    const res = await app.client.patch('/api/v1/profile', { record_history: false }, { headers });
    refused(res, 403, { code: 'insufficient_scope', scope: 'profile.write' });
    expect((await app.client.get('/api/v1/profile', { headers })).body.data.record_history).to.equal(true);
  });

  /** Every item GET /history shows the person, walking its pages of 100, as `game:<id>`. */
  async function shown(person: NamedPerson): Promise<string[]> {
    const items: string[] = [];
    let before = '';
    for (;;) {
      const res = await person.site.get(`/api/v1/history?limit=100${before}`);
      expect(res.status, res.text).to.equal(200);
      items.push(...res.body.data.map((item: { game: { id: number } }) => `game:${item.game.id}`));
      if (!res.body.has_more) return items;
      before = `&before=${res.body.next_before}`;
    }
  }

  it('shows the 500 newest: a new view hides the oldest, a repeat hides nothing, and the purge removes the hidden', async () => {
    const reader = await namedPerson(app.client, 'hi_cap_reader');
    const games: Array<{ id: number }> = await db()('games')
      .insert(Array.from({ length: 501 }, (_, i) => ({ slug: `hi-cap-${i}`, name: `Cap ${i}` })))
      .returning('id');
    // 500 views a second apart, the first game the oldest.
    const start = Date.now() - 3 * DAY;
    await db()('view_history').insert(
      games.slice(0, 500).map((game, i) => ({
        account_id: reader.account.id,
        game_id: game.id,
        viewed_at: new Date(start + i * 1000),
      })),
    );
    // A repeat view at the cap moves its row and hides nothing.
    await view(reader, '/api/v1/games/hi-cap-0', { game: games[0].id });
    const repeated = await shown(reader);
    expect(repeated).to.have.length(500);
    expect(repeated[0]).to.equal(`game:${games[0].id}`);
    // A new view: the oldest (now the second game) is no longer shown.
    await view(reader, '/api/v1/games/hi-cap-500', { game: games[500].id });
    const items = await shown(reader);
    expect(items).to.have.length(500);
    expect(items.slice(0, 2)).to.deep.equal([`game:${games[500].id}`, `game:${games[0].id}`]);
    expect(items).to.not.include(`game:${games[1].id}`);
    expect(items.at(-1)).to.equal(`game:${games[2].id}`);
    // The kinds are one history: profiles hide games past the cap as well.
    expect((await reader.site.get('/api/v1/history?kind=profiles')).body.data).to.deep.equal([]);

    // The purge removes what no read shows, and only that.
    expect(await recorded(reader.account.id)).to.have.length(501);
    expect((await purge()).expired_views).to.equal(1);
    const rows = await recorded(reader.account.id);
    expect(rows).to.deep.equal(items);
    expect((await purge()).expired_views).to.equal(0);
  });

  it('writes one row however many views of one thing arrive at once, and every thing of views at once', async () => {
    const reader = await namedPerson(app.client, 'hi_parallel');
    const same = await catalogGame();
    const games: Array<{ id: number; slug: string }> = await db()('games')
      .insert(Array.from({ length: 10 }, (_, i) => ({ slug: `hi-par-${i}`, name: `Par ${i}` })))
      .returning(['id', 'slug']);
    const paths = [...games.map((game) => `/api/v1/games/${game.slug}`), ...games.map(() => gamePath(same))];
    const answers = await Promise.all(paths.map((path) => reader.site.get(path)));
    expect(answers.map((res) => res.status)).to.deep.equal(paths.map(() => 200));
    const expected = [...games.map((game) => `game:${game.id}`), `game:${same.id}`].sort();
    await until(async () => (await recorded(reader.account.id)).length === expected.length);
    expect((await recorded(reader.account.id)).sort()).to.deep.equal(expected);
  });

  it('keeps views 90 days: older ones are never shown and the retention purge removes them', async () => {
    const reader = await namedPerson(app.client, 'hi_old_reader');
    const old = await catalogGame();
    const recent = await catalogGame();
    await view(reader, gamePath(old), { game: old.id });
    await view(reader, gamePath(recent), { game: recent.id });
    await setViewedAt(reader.account.id, { game: old.id }, new Date(Date.now() - 90 * DAY - 60_000));
    await setViewedAt(reader.account.id, { game: recent.id }, new Date(Date.now() - 89 * DAY));
    const listed = await reader.site.get('/api/v1/history');
    expect(listed.body.data.map((item: { game: { id: number } }) => item.game.id)).to.deep.equal([recent.id]);

    expect((await purge()).expired_views).to.equal(1);
    expect(await recorded(reader.account.id)).to.deep.equal([`game:${recent.id}`]);
    expect((await purge()).expired_views).to.equal(0);
  });

  it('answers before the view is written, and a view that cannot be written is logged, not answered', async () => {
    const reader = await namedPerson(app.client, 'hi_late_reader');
    const game = await catalogGame();
    await view(reader, gamePath(game), { game: game.id });
    const before = await viewedAt(reader.account.id, { game: game.id });
    // Another transaction holds the row: the read still answers, and its view waits until it is let go.
    await db().transaction(async (trx) => {
      await trx('view_history').where({ account_id: reader.account.id, game_id: game.id }).forUpdate().select('id');
      const res = await reader.site.get(gamePath(game));
      expect(res.status, res.text).to.equal(200);
      expect(await viewedAt(reader.account.id, { game: game.id })).to.equal(before);
    });
    await until(async () => (await viewedAt(reader.account.id, { game: game.id })) !== before);

    // A write the database refuses: the read answers 200 and the failure is logged.
    await db().raw(`CREATE FUNCTION hi_refuse_view() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.account_id = '${reader.account.id}' THEN RAISE EXCEPTION 'refused in a test'; END IF;
      RETURN NEW; END $$`);
    await db().raw(
      'CREATE TRIGGER hi_refuse_view BEFORE INSERT OR UPDATE ON view_history FOR EACH ROW EXECUTE FUNCTION hi_refuse_view()',
    );
    try {
      const other = await catalogGame();
      const res = await reader.site.get(gamePath(other));
      expect(res.status, res.text).to.equal(200);
      // Views are written together a moment later: the failing one is tried alone and logged with its reader.
      await until(async () =>
        app.logs.some(
          (line) => line.msg === 'could not record a view in the history' && line.account_id === reader.account.id,
        ),
      );
      expect(await viewedAt(reader.account.id, { game: other.id })).to.equal(null);
    } finally {
      await db().raw('DROP TRIGGER hi_refuse_view ON view_history');
      await db().raw('DROP FUNCTION hi_refuse_view()');
    }
  });
});
