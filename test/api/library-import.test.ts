// POST /library/import (DECISIONS: Library): 1 to 500 entries, all or nothing, each written as a PUT writes
// it; a refusal names the first bad entry's field; no feed items.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import * as people from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

type Person = people.NamedPerson;

const IMPORT = '/api/v1/library/import';

describe('POST /library/import', () => {
  useCleanDatabase();
  const app = useTestApp();
  let owner: Person;
  /** 500 catalog games on platforms 6 and 48. */
  let ids: number[] = [];

  const count = async (accountId: string, table = 'library_entries') =>
    Number((await db()(table).where({ account_id: accountId }).count({ n: '*' }))[0].n);

  before(async () => {
    owner = await people.namedPerson(app.client, 'importer');
    const rows = await db()('games')
      .insert(
        Array.from({ length: 500 }, (_, i) => ({
          slug: `import-game-${i}`,
          name: `Import ${i}`,
          platform_ids: [6, 48],
        })),
      )
      .returning('id');
    ids = rows.map((row: { id: number }) => row.id);
  });

  it('writes each entry as a PUT would: new ones created, held ones replaced keeping created_at', async () => {
    const person = await people.namedPerson(app.client, 'import_some');
    const held = await people.libraryEntry(person.account.id, {
      game_id: ids[0],
      status: 'DROPPED',
      liked: true,
      rating: 10,
      created_at: new Date('2024-01-01T00:00:00Z'),
    });
    const finished = '2026-01-02T03:04:05.678Z';
    const res = await person.site.post(IMPORT, {
      entries: [
        { game_id: ids[0], status: 'COMPLETED', rating: 88, finished_at: finished },
        { game_id: ids[1], wishlist: true },
        { game_id: ids[2], platform_id: 48, ignored: true, status: 'PLAYING', playing: true },
      ],
    });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.equal({ data: { created: 2, updated: 1 } });

    const library = await person.site.get('/api/v1/library?sort=rating');
    const byGame = new Map(library.body.data.map((entry: { game_id: number }) => [entry.game_id, entry]));
    expect(byGame.get(ids[0])).to.deep.include({
      status: 'COMPLETED',
      rating: 88,
      liked: false,
      finished_at: finished,
      created_at: '2024-01-01T00:00:00.000Z',
    });
    expect(byGame.get(ids[1])).to.deep.include({ wishlist: true, status: null, rating: null, platform_id: null });
    expect(byGame.get(ids[2])).to.deep.include({ platform_id: 48, ignored: true, playing: true });
    expect((await db()('library_entries').where({ id: held.id }).first()).rating).to.equal(88);
    expect(await count(person.account.id, 'activity_items')).to.equal(0);
  });

  it('imports 500 entries at once and adds nothing to the feed', async () => {
    const res = await owner.site.post(IMPORT, {
      entries: ids.map((id, i) => ({ game_id: id, rating: i % 101, status: i % 2 ? 'COMPLETED' : null })),
    });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data).to.deep.equal({ created: 500, updated: 0 });
    expect(await count(owner.account.id)).to.equal(500);
    expect(await count(owner.account.id, 'activity_items')).to.equal(0);

    const again = await owner.site.post(IMPORT, { entries: ids.slice(0, 3).map((id) => ({ game_id: id })) });
    expect(again.body.data).to.deep.equal({ created: 0, updated: 3 });
    expect(await count(owner.account.id, 'activity_items')).to.equal(0);
  });

  it('refuses an import whose 300th entry names an unknown game, and writes none of it', async () => {
    const person = await people.namedPerson(app.client, 'import_bad');
    const entries = ids.slice(0, 400).map((id) => ({ game_id: id, rating: 50 }));
    entries[299] = { game_id: 987654321, rating: 50 };
    const res = await person.site.post(IMPORT, { entries });
    expect(res.status, res.text).to.equal(400);
    expect(res.body.error).to.include({
      code: 'invalid_request',
      reason: 'fields_invalid',
      field: 'entries.299.game_id',
    });
    expect(await count(person.account.id)).to.equal(0);
  });

  it('names the first bad entry, whatever is wrong with the later ones', async () => {
    const person = await people.namedPerson(app.client, 'import_first');
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const cases: Array<[Array<Record<string, unknown>>, string]> = [
      [[{ game_id: ids[0] }, { game_id: ids[1], platform_id: 7 }, { game_id: 987654321 }], 'entries.1.platform_id'],
      [[{ game_id: ids[0] }, { game_id: ids[1] }, { game_id: ids[2], finished_at: future }], 'entries.2.finished_at'],
      [[{ game_id: ids[3] }, { game_id: ids[4] }, { game_id: ids[3], rating: 1 }], 'entries.2.game_id'],
      [[{ game_id: 987654321 }, { game_id: ids[1], platform_id: 7 }], 'entries.0.game_id'],
    ];
    for (const [entries, field] of cases) {
      const res = await person.site.post(IMPORT, { entries });
      expect(res.status, field).to.equal(400);
      expect(res.body.error).to.include({ code: 'invalid_request', reason: 'fields_invalid', field });
    }
    expect(await count(person.account.id)).to.equal(0);
  });

  for (const [body, field, reason] of [
    [{}, 'entries', 'missing'],
    [{ entries: [] }, 'entries', 'too_short'],
    [{ entries: 'all' }, 'entries', 'wrong_type'],
    [{ entries: [{ game_id: 1 }], source: 'csv' }, 'source', 'unknown_field'],
    [{ entries: [{ game_id: 1 }, 5] }, 'entries', 'wrong_type'],
    [{ entries: [{ game_id: 1 }, { rating: 5 }] }, 'entries.1.game_id', 'missing'],
    [{ entries: [{ game_id: 1 }, { game_id: '2' }] }, 'entries.1.game_id', 'wrong_type'],
    [{ entries: [{ game_id: 1 }, { game_id: 0 }] }, 'entries.1.game_id', 'out_of_range'],
    [{ entries: [{ game_id: 1 }, { game_id: 2 }, { game_id: 3, rating: 101 }] }, 'entries.2.rating', 'out_of_range'],
    [{ entries: [{ game_id: 1, status: 'BEATEN' }] }, 'entries.0.status', 'not_allowed'],
    [{ entries: [{ game_id: 1, liked: 'true' }] }, 'entries.0.liked', 'wrong_type'],
    [{ entries: [{ game_id: 1, finished_at: '2026-13-01' }] }, 'entries.0.finished_at', 'bad_format'],
    [{ entries: [{ game_id: 1, title: 'x' }] }, 'entries.0.title', 'unknown_field'],
  ] as const) {
    it(`refuses ${JSON.stringify(body).slice(0, 80)} with 400 ${reason} naming ${field}`, async () => {
      const res = await owner.site.post(IMPORT, body);
      expect(res.status, res.text).to.equal(400);
      expect(res.body.error).to.include({ code: 'invalid_request', field, reason });
    });
  }

  it('refuses more than 500 entries', async () => {
    const person = await people.namedPerson(app.client, 'import_many');
    const entries = [...ids, ids[0]].map((id) => ({ game_id: id }));
    const res = await person.site.post(IMPORT, { entries });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ code: 'invalid_request', field: 'entries', reason: 'too_long' });
    expect(await count(person.account.id)).to.equal(0);
  });

  it('needs a caller, and from a key library.write', async () => {
    const body = { entries: [{ game_id: ids[0] }] };
    const anonymous = await new SiteClient(app.client).post(IMPORT, body);
    expect(anonymous.status).to.equal(401);
    const person = await people.namedPerson(app.client, 'import_key');
    const { token: reads } = await appWithKey(person.account.id, ['library.read']);
    const { token: writes } = await appWithKey(person.account.id, ['library.write']);
    const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
    const refused = await app.client.post(IMPORT, body, bearer(reads));
    expect(refused.status).to.equal(403);
    expect(refused.body.error).to.include({ code: 'insufficient_scope', scope: 'library.write' });
    const done = await app.client.post(IMPORT, body, bearer(writes));
    expect(done.status, done.text).to.equal(200);
    expect(done.headers.get('x-ratelimit-resource')).to.equal('write');
    expect(done.body.data).to.deep.equal({ created: 1, updated: 0 });
    expect(await count(person.account.id)).to.equal(1);
  });
});
