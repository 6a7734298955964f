// Attempt limits under concurrency, over real HTTP: many guesses sent at once for one account get exactly
// the limit's number checked, the rest 429 before any check. Counts, never times.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { buildAccount, PASSWORD, signedInClient } from '../helpers/factories.js';
import { SiteClient } from '../helpers/site-client.js';
import { useTestApp } from '../helpers/test-app.js';

function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('attempt limits under concurrency', () => {
  useCleanDatabase();
  const app = useTestApp();

  it('checks 5 of 40 parallel wrong passwords for one account, each from its own address', async () => {
    const { email } = await buildAccount();
    const tries = Array.from({ length: 40 }, (_, i) =>
      new SiteClient(app.client).post('/api/auth/sign-in', { email, password: `wrong ${i}` }),
    );
    const statuses = (await Promise.all(tries)).map((res) => res.status);
    expect(tally(statuses)).to.deep.equal({ 401: 5, 429: 35 });
    // The right password is refused too until the window ends.
    const right = await new SiteClient(app.client).post('/api/auth/sign-in', { email, password: PASSWORD });
    expect(right.status).to.equal(429);
  });

  it('checks 5 of 30 parallel wrong passwords from one address across accounts', async () => {
    const site = new SiteClient(app.client);
    const emails = await Promise.all(Array.from({ length: 30 }, async () => (await buildAccount()).email));
    const statuses = (
      await Promise.all(emails.map((email) => site.post('/api/auth/sign-in', { email, password: 'wrong password' })))
    ).map((res) => res.status);
    expect(tally(statuses)).to.deep.equal({ 401: 5, 429: 25 });
  });

  it('checks 5 of 30 parallel wrong two-factor codes for one session', async () => {
    const { email } = await buildAccount({ twoFactor: true });
    const site = new SiteClient(app.client);
    expect((await site.post('/api/auth/sign-in', { email, password: PASSWORD })).status).to.equal(200);
    const statuses = (
      await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          site.post('/api/auth/two-factor', { code: `1${String(i).padStart(5, '0')}` }),
        ),
      )
    ).map((res) => res.status);
    expect(tally(statuses)).to.deep.equal({ 403: 5, 429: 25 });
  });

  it('checks 10 of 30 parallel wrong deletion proofs, and deletes nothing', async () => {
    const { site, account } = await signedInClient(app.client);
    const statuses = (
      await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          site.delete('/api/v1/account/data?category=library', { body: { password: `wrong ${i}` } }),
        ),
      )
    ).map((res) => res.status);
    expect(tally(statuses)).to.deep.equal({ 403: 10, 429: 20 });
    expect(await db()('accounts').where({ id: account.id }).first('id')).to.not.equal(undefined);
  });

  it('mails 5 of 20 parallel magic-link requests for one email', async () => {
    const { email } = await buildAccount();
    const before = await db()('email_outbox').count<{ count: string }[]>('* as count');
    const statuses = (
      await Promise.all(
        Array.from({ length: 20 }, () => new SiteClient(app.client).post('/api/auth/magic-link', { email })),
      )
    ).map((res) => res.status);
    const passed = statuses.filter((status) => status < 300).length;
    expect([passed, statuses.filter((status) => status === 429).length]).to.deep.equal([5, 15]);
    const after = await db()('email_outbox').count<{ count: string }[]>('* as count');
    expect(Number(after[0].count) - Number(before[0].count)).to.equal(5);
  });
});
