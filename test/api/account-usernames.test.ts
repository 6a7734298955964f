// Usernames and aliases: availability, first names, renames, the alias window and lookups by alias.
import { expect } from 'chai';
import { Account } from '../../shared/accounts/account.js';
import type { Knex } from 'knex';
import { findByUsername, usernameAvailable } from '../../shared/accounts/usernames.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { buildAccount, signedInClient } from '../helpers/factories.js';
import { useTestApp } from '../helpers/test-app.js';

const DAY = 24 * 3600 * 1000;

describe('account usernames', () => {
  useCleanDatabase();
  const app = useTestApp();

  it('says whether a name is free; a malformed name is simply not available', async () => {
    await buildAccount({ username: 'taken_one' });
    const { site } = await signedInClient(app.client);
    const check = async (q: string) =>
      (await site.get(`/api/v1/account/username?q=${encodeURIComponent(q)}`)).body.data.available;
    expect(await check('free_name')).to.equal(true);
    expect(await check('taken_one')).to.equal(false);
    for (const malformed of ['Bad Name', 'ab', '_lead', 'trail_', 'UPPER', 'x'.repeat(25), '']) {
      expect(await check(malformed), malformed).to.equal(false);
    }
    const missing = await site.get('/api/v1/account/username');
    expect(missing.status).to.equal(400);
    expect(missing.body.error).to.deep.include({ field: 'q', reason: 'missing' });
  });

  it('answers any string, however long, with available false, not an error', async () => {
    const { site } = await signedInClient(app.client);
    // 201 was refused with 400 once; the longest here still fits the HTTP parser's request line.
    for (const long of ['a'.repeat(201), 'taken_one'.repeat(400), 'é'.repeat(1000), `${'x'.repeat(3000)} ?&=`]) {
      const res = await site.get(`/api/v1/account/username?q=${encodeURIComponent(long)}`);
      expect(res.status, `${long.length} characters`).to.equal(200);
      expect(res.body.data).to.deep.equal({ username: long, available: false });
    }
  });

  it('judges a string too long for a name without asking the database', async () => {
    // Any statement at all would call this or read one of its members (a model's query reads several).
    const asked = () => {
      throw new Error('the database was asked');
    };
    const untouchable = new Proxy(asked, { apply: asked, get: asked }) as unknown as Knex;
    expect(await usernameAvailable(untouchable, 'a'.repeat(100_000), 'not-an-account')).to.equal(false);
    expect(await usernameAvailable(untouchable, 'a'.repeat(25), 'not-an-account')).to.equal(false);
    // The same function does ask it for a name: the stand-in above is really in the way.
    const answer = await usernameAvailable(untouchable, 'fits_a_name', 'not-an-account').then(
      () => 'answered',
      (error: Error) => error.message,
    );
    expect(answer).to.equal('the database was asked');
  });

  it('takes a first name with PUT, once', async () => {
    const { site, account } = await signedInClient(app.client);
    const res = await site.put('/api/v1/account/username', { username: 'first_name' });
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.equal({ username: 'first_name', next_change_at: null });
    expect((await Account.query(db()).findById(account.id))!.username).to.equal('first_name');
    const again = await site.put('/api/v1/account/username', { username: 'second_name' });
    expect(again.status).to.equal(409);
    expect(again.body.error.reason).to.equal('username_already_set');
  });

  it('refuses a taken or malformed name', async () => {
    await buildAccount({ username: 'someone' });
    const { site } = await signedInClient(app.client);
    const taken = await site.put('/api/v1/account/username', { username: 'someone' });
    expect(taken.status).to.equal(409);
    expect(taken.body.error).to.deep.include({ code: 'conflict', reason: 'username_taken' });
    for (const username of ['Someone', 'a', 'has space', 'x'.repeat(25), 'bad-dash']) {
      const res = await site.put('/api/v1/account/username', { username });
      expect(res.status, username).to.equal(400);
      expect(res.body.error).to.deep.include({ field: 'username', reason: 'bad_format' });
    }
  });

  it('gives a contested name to one of two simultaneous claims', async () => {
    const one = await signedInClient(app.client);
    const two = await signedInClient(app.client);
    const answers = await Promise.all([
      one.site.put('/api/v1/account/username', { username: 'contested' }),
      two.site.put('/api/v1/account/username', { username: 'contested' }),
    ]);
    expect(answers.map((r) => r.status).sort()).to.deep.equal([200, 409]);
  });

  it('renames, with 30 days between renames (409 with next_change_at when too soon)', async () => {
    const { site, account } = await signedInClient(app.client);
    await site.put('/api/v1/account/username', { username: 'old_name' });
    const renamed = await site.patch('/api/v1/account/username', { username: 'new_name' });
    expect(renamed.status).to.equal(200);
    expect(renamed.body.data.username).to.equal('new_name');
    const next = new Date(renamed.body.data.next_change_at).getTime();
    expect(next - Date.now()).to.be.within(30 * DAY - 60000, 30 * DAY);
    const early = await site.patch('/api/v1/account/username', { username: 'newer_name' });
    expect(early.status).to.equal(409);
    expect(early.body.error).to.deep.include({
      code: 'conflict',
      reason: 'rename_too_soon',
      next_change_at: renamed.body.data.next_change_at,
    });

    await db()('accounts')
      .where({ id: account.id })
      .update({ username_changed_at: new Date(Date.now() - 31 * DAY) });
    expect((await site.patch('/api/v1/account/username', { username: 'newer_name' })).status).to.equal(200);
  });

  it('keeps an old name as an alias for 30 days: it finds the account and nobody else may take it', async () => {
    const { site, account } = await signedInClient(app.client);
    await site.put('/api/v1/account/username', { username: 'before_rename' });
    await site.patch('/api/v1/account/username', { username: 'after_rename' });
    const viaAlias = await findByUsername(db(), 'before_rename');
    expect(viaAlias?.id).to.equal(account.id);
    expect(viaAlias?.username).to.equal('after_rename');
    expect((await findByUsername(db(), 'BEFORE_RENAME'))?.id, 'lookups ignore case').to.equal(account.id);

    const other = await signedInClient(app.client);
    expect((await other.site.get('/api/v1/account/username?q=before_rename')).body.data.available).to.equal(false);
    expect(
      (await site.get('/api/v1/account/username?q=before_rename')).body.data.available,
      'free for its owner',
    ).to.equal(true);
    const blocked = await other.site.put('/api/v1/account/username', { username: 'before_rename' });
    expect(blocked.status).to.equal(409);

    // 30 days later the alias ends: the name points nowhere and another account may take it.
    await db()('usernames')
      .where({ name: 'before_rename' })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect(await findByUsername(db(), 'before_rename')).to.equal(undefined);
    const taken = await other.site.put('/api/v1/account/username', { username: 'before_rename' });
    expect(taken.status).to.equal(200);
    expect((await findByUsername(db(), 'before_rename'))?.id).to.equal(other.account.id);
  });

  it('lets the owner take back their own alias', async () => {
    const { site, account } = await signedInClient(app.client);
    await site.put('/api/v1/account/username', { username: 'mine_first' });
    await site.patch('/api/v1/account/username', { username: 'mine_second' });
    await db()('accounts')
      .where({ id: account.id })
      .update({ username_changed_at: new Date(Date.now() - 31 * DAY) });
    const back = await site.patch('/api/v1/account/username', { username: 'mine_first' });
    expect(back.status).to.equal(200);
    const rows = await db()('usernames').where({ account_id: account.id }).orderBy('name');
    expect(rows.map((r) => [r.name, r.kind])).to.deep.equal([
      ['mine_first', 'current'],
      ['mine_second', 'alias'],
    ]);
  });

  it('refuses a name change without a name', async () => {
    const { site } = await signedInClient(app.client);
    for (const method of ['put', 'patch'] as const) {
      const res = await site[method]('/api/v1/account/username', {});
      expect(res.status, method).to.equal(400);
      expect(res.body.error).to.deep.include({ field: 'username', reason: 'missing' });
    }
    const badRename = await site.patch('/api/v1/account/username', { username: 'Bad Name' });
    expect(badRename.body.error).to.deep.include({ field: 'username', reason: 'bad_format' });
  });

  it('needs a first name before a rename', async () => {
    const { site } = await signedInClient(app.client);
    const res = await site.patch('/api/v1/account/username', { username: 'some_name' });
    expect(res.status).to.equal(409);
    expect(res.body.error.reason).to.equal('no_username');
  });

  it('holds one name in one place: the database refuses a second holder', async () => {
    const a = await buildAccount({ username: 'only_once' });
    const b = await buildAccount();
    try {
      await db()('usernames').insert({ name: 'only_once', account_id: b.account.id, kind: 'current' });
      expect.fail('the database should refuse');
    } catch (error) {
      expect((error as { code: string }).code).to.equal('23505');
    }
    expect((await findByUsername(db(), 'only_once'))?.id).to.equal(a.account.id);
  });
});
