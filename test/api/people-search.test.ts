// GET /search/people: matching without case or accents, relevance order, the other sorts, the verified
// filter, who is left out (no username, suspended, blocked either way) and the bounds of the parameters.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey, buildAccount } from '../helpers/factories.js';
import * as people from '../helpers/people.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

type Signed = Awaited<ReturnType<typeof people.namedPerson>>;

describe('GET /search/people', () => {
  useCleanDatabase();
  const app = useTestApp();
  const named: Record<string, Signed> = {};
  const anonymous = () => new SiteClient(app.client);
  const names = (res: { body: { data: Array<{ username: string }> } }) => res.body.data.map((row) => row.username);

  // [username, display name]; created one minute apart in this order, so `newest` is the reverse.
  const PEOPLE: Array<[string, string]> = [
    ['alice', 'Alice Liddell'],
    ['alice_b', 'Somebody'],
    ['malice', 'Mal'],
    ['zed', 'Álice Zed'],
    ['verified_vic', 'Vic'],
    ['banned_alice', 'Banned'],
    ['blocks_reader', 'Alice who blocks'],
    ['blocked_alice', 'Blocked by reader'],
    ['reader_one', 'Reader'],
    ['staff_sam', 'Sam'],
  ];

  before(async () => {
    const start = Date.now() - 3_600_000;
    for (const [index, [username, display]] of PEOPLE.entries()) {
      named[username] = await people.namedPerson(app.client, username);
      await db()('accounts')
        .where({ id: named[username].account.id })
        .update({ display_name: display, created_at: new Date(start + index * 60_000) });
    }
    const id = (username: string) => named[username].account.id;
    // Someone who never chose a username is not findable, whatever the display name says.
    const { account: nameless } = await buildAccount();
    await db()('accounts').where({ id: nameless.id }).update({ display_name: 'Alice Nameless' });
    await db()('verifications').insert({ account_id: id('verified_vic') });
    await db()('mineral_balances').insert({ account_id: id('verified_vic'), level: 7 });
    await db()('infractions').insert({
      account_id: id('banned_alice'),
      reason: 'Suspensão',
      expires_at: new Date(Date.now() + 86_400_000),
    });
    await people.block(id('blocks_reader'), id('reader_one'));
    await people.block(id('reader_one'), id('blocked_alice'));
    await db()('accounts')
      .where({ id: id('staff_sam') })
      .update({ role: 'moderator' });
  });

  it('orders by relevance: exact username, then prefixes, then the rest that contain the text', async () => {
    const res = await named.reader_one.site.get('/api/v1/search/people?q=ALICE');
    expect(res.status).to.equal(200);
    // zed: display name "Álice Zed" starts with the text once accents are folded.
    expect(names(res)).to.deep.equal(['alice', 'alice_b', 'zed', 'malice']);
    expect(res.body.page).to.deep.include({ number: 1, size: 24, total_items: 4, has_more: false });
    expect(res.body.data[0]).to.deep.equal({
      username: 'alice',
      display_name: 'Alice Liddell',
      avatar_url: null,
      verified: false,
      level: 1,
    });
  });

  it('leaves out people blocked either way, but not for readers outside the block', async () => {
    const forReader = names(await named.reader_one.site.get('/api/v1/search/people?q=block'));
    expect(forReader).to.deep.equal([]);
    const forOthers = names(await anonymous().get('/api/v1/search/people?q=block'));
    expect(forOthers).to.deep.equal(['blocked_alice', 'blocks_reader']);
  });

  it('leaves suspended accounts out of rows and total, except for staff and the account itself', async () => {
    const plain = await anonymous().get('/api/v1/search/people?q=banned');
    expect(plain.body.data).to.deep.equal([]);
    expect(plain.body.page.total_items).to.equal(0);
    const everyone = await anonymous().get('/api/v1/search/people?sort=name');
    expect(names(everyone)).to.not.include('banned_alice');
    expect(everyone.body.page.total_items).to.equal(PEOPLE.length - 1);

    const staff = await named.staff_sam.site.get('/api/v1/search/people?q=banned');
    expect(names(staff)).to.deep.equal(['banned_alice']);
    expect(staff.body.page.total_items).to.equal(1);
    const self = await named.banned_alice.site.get('/api/v1/search/people?q=banned');
    expect(names(self)).to.deep.equal(['banned_alice']);
    const other = await named.alice.site.get('/api/v1/search/people?q=banned');
    expect(names(other)).to.deep.equal([]);
  });

  it('keeps only verified accounts with verified=1, showing their level', async () => {
    const res = await anonymous().get('/api/v1/search/people?verified=1');
    expect(res.body.data).to.deep.equal([
      { username: 'verified_vic', display_name: 'Vic', avatar_url: null, verified: true, level: 7 },
    ]);
    expect(res.body.page.total_items).to.equal(1);
  });

  it('sorts by newest account (also relevance without a text) and by name', async () => {
    const visible = PEOPLE.map(([username]) => username).filter((username) => username !== 'banned_alice');
    const newest = names(await anonymous().get('/api/v1/search/people?sort=newest'));
    expect(newest).to.deep.equal([...visible].reverse());
    const relevance = names(await anonymous().get('/api/v1/search/people'));
    expect(relevance).to.deep.equal(newest);
    const byName = names(await anonymous().get('/api/v1/search/people?sort=name'));
    expect(byName).to.deep.equal([...visible].sort());
    const newestAlices = names(await anonymous().get('/api/v1/search/people?q=alice&sort=newest'));
    expect(newestAlices).to.deep.equal(['blocked_alice', 'blocks_reader', 'zed', 'malice', 'alice_b', 'alice']);
  });

  it('pages 24 at a time', async () => {
    const res = await anonymous().get('/api/v1/search/people?page=2');
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.equal([]);
    expect(res.body.page).to.deep.include({ number: 2, size: 24, has_more: false });
  });

  for (const [query, field] of [
    ['page=0', 'page'],
    ['page=101', 'page'],
    ['page=abc', 'page'],
    [`q=${'a'.repeat(81)}`, 'q'],
    ['sort=popular', 'sort'],
    ['verified=2', 'verified'],
  ] as const) {
    it(`answers ${query.slice(0, 12)} with 400 naming ${field}`, async () => {
      const res = await anonymous().get(`/api/v1/search/people?${query}`);
      expect(res.status).to.equal(400);
      expect(res.body.error).to.include({ code: 'invalid_request', field });
    });
  }

  it('takes a q of 80 characters', async () => {
    const res = await anonymous().get(`/api/v1/search/people?q=${'a'.repeat(80)}`);
    expect(res.status).to.equal(200);
  });

  it('needs profile.read from a key', async () => {
    const owner = named.reader_one.account.id;
    const { token: withScope } = await appWithKey(owner, ['profile.read']);
    const { token: without } = await appWithKey(owner, ['library.read']);
    const ok = await app.client.get('/api/v1/search/people?q=alice', {
      headers: { authorization: `Bearer ${withScope}` },
    });
    expect(ok.status).to.equal(200);
    // The key speaks for its owner: the block still applies.
    expect(names(ok)).to.not.include('blocks_reader');
    const refused = await app.client.get('/api/v1/search/people', { headers: { authorization: `Bearer ${without}` } });
    expect(refused.status).to.equal(403);
    expect(refused.body.error).to.include({ code: 'insufficient_scope', scope: 'profile.read' });
  });
});
