// A former username on the people routes (spec: Username, People): a lookup accepts an alias from the
// last 30 days, so every route that names a person answers under it for 30 days after the rename and 404
// after that. The rename is moved back in time by its stored timestamps, never waited for.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { namedPerson } from '../helpers/people.js';
import { useTestApp } from '../helpers/test-app.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Every people route that names a person, by path or by `profile`. */
const routes = (name: string) => [
  `/api/v1/profiles/${name}`,
  `/api/v1/profiles/${name}/social`,
  `/api/v1/profiles/${name}/summary`,
  `/api/v1/profiles/${name}/layout`,
  `/api/v1/profiles/${name}/library`,
  `/api/v1/profiles/${name}/lists`,
  `/api/v1/profiles/${name}/lists/folders`,
  `/api/v1/profiles/${name}/reviews`,
  `/api/v1/profiles/${name}/screenshots`,
  `/api/v1/profiles/${name}/stats`,
  `/api/v1/profiles/${name}/journeys`,
  `/api/v1/profiles/${name}/year/${new Date().getUTCFullYear()}`,
  `/api/v1/profiles/${name}/minerals`,
  `/api/v1/profiles/${name}/connections`,
  `/api/v1/profiles/${name}/verification`,
  `/api/v1/activity?profile=${name}`,
];

describe('a former username on the people routes', () => {
  useCleanDatabase();
  const app = useTestApp();

  /** Moves the rename of `former` back to `ago` milliseconds before now: its alias ends 30 days after it. */
  async function renamedAgo(accountId: string, former: string, ago: number) {
    const renamedAt = Date.now() - ago;
    await db()('accounts')
      .where({ id: accountId })
      .update({ username_changed_at: new Date(renamedAt) });
    await db()('usernames')
      .where({ name: former })
      .update({ expires_at: new Date(renamedAt + 30 * DAY) });
  }

  async function statuses(name: string) {
    const answers: Record<string, number> = {};
    for (const path of routes(name)) answers[path] = (await app.client.get(path)).status;
    return answers;
  }
  const every = (name: string, status: number) => Object.fromEntries(routes(name).map((path) => [path, status]));

  it('keeps the alias 30 days from the rename, answering under it on every route, and 404 after', async () => {
    const owner = await namedPerson(app.client, 'alias_before');
    const renamed = await owner.site.patch('/api/v1/account/username', { username: 'alias_after' });
    expect(renamed.status).to.equal(200);
    // What the rename stored: an alias ending 30 days after the rename.
    const alias = await db()('usernames').where({ name: 'alias_before' }).first();
    const account = await db()('accounts').where({ id: owner.account.id }).first();
    expect(alias).to.include({ kind: 'alias', account_id: owner.account.id });
    expect(alias.expires_at.getTime() - account.username_changed_at.getTime()).to.be.within(
      30 * DAY - MINUTE,
      30 * DAY + MINUTE,
    );

    // Renamed a minute short of 30 days ago: the old name still finds the person, under the current name.
    await renamedAgo(owner.account.id, 'alias_before', 30 * DAY - MINUTE);
    expect(await statuses('alias_before')).to.deep.equal(every('alias_before', 200));
    const found = await app.client.get('/api/v1/profiles/alias_before');
    expect(found.body.data).to.include({ username: 'alias_after' });
    expect(found.body.data.aliases).to.deep.equal(['alias_before']);

    // A minute past 30 days: the old name finds nobody anywhere, while the current name still answers.
    await renamedAgo(owner.account.id, 'alias_before', 30 * DAY + MINUTE);
    expect(await statuses('alias_before')).to.deep.equal(every('alias_before', 404));
    const gone = await app.client.get('/api/v1/profiles/alias_before/lists');
    expect(gone.body.error.code).to.equal('not_found');
    expect(await statuses('alias_after')).to.deep.equal(every('alias_after', 200));
    expect((await app.client.get('/api/v1/profiles/alias_after')).body.data.aliases).to.deep.equal([]);
  });
});
