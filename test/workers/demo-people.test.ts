// seed:demo's people: the asked numbers, the same data every time, nothing added by a repeat.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { seedDemoPeople } from '../../db/seeds/demo-people.js';
import { findByUsername } from '../../shared/accounts/usernames.js';
import { useCleanDatabase } from '../helpers/clean-database.js';

describe('demo people', () => {
  useCleanDatabase();

  before(async () => {
    await db()('games').insert(
      Array.from({ length: 60 }, (_, i) => ({ slug: `demo-game-${i}`, name: `Demo Game ${i}`, popularity: 60 - i })),
    );
  });

  it('makes the accounts with names, libraries, follows and activity, and a repeat adds nothing', async () => {
    const first = await seedDemoPeople(db(), { accounts: 30, entriesPerAccount: 10 });
    expect(first.accounts).to.equal(30);
    expect(first.entries).to.be.within(150, 300);
    expect(first.follows).to.be.greaterThan(0);
    expect(first.activity).to.be.at.least(first.entries);
    const person = await findByUsername(db(), 'demo_7');
    expect(person?.username).to.equal('demo_7');
    const entries = await db()('library_entries').count<{ n: number }[]>('* as n');
    const again = await seedDemoPeople(db(), { accounts: 30, entriesPerAccount: 10 });
    expect(again.entries).to.equal(0);
    expect(again.infractions).to.equal(0);
    expect(await db()('library_entries').count<{ n: number }[]>('* as n')).to.deep.equal(entries);
  });

  it('gives one person in fifty an infraction: warnings, suspensions (some over) and bans, by the rules', async () => {
    const seeded = await seedDemoPeople(db(), { accounts: 1000, entriesPerAccount: 1 });
    expect(seeded.infractions).to.be.within(10, 35);
    const rows = await db()('infractions').select('reason', 'expires_at');
    expect(rows).to.have.length(seeded.infractions);
    const reasons = new Set(rows.map((row) => row.reason));
    expect([...reasons].sort()).to.deep.equal(['Aviso', 'Banimento permanente', 'Suspensão']);
    for (const row of rows) expect(row.expires_at === null).to.equal(row.reason !== 'Suspensão');
    const suspensions = rows.filter((row) => row.reason === 'Suspensão').map((row) => row.expires_at.getTime());
    expect(suspensions.some((at) => at < Date.now()) && suspensions.some((at) => at > Date.now())).to.equal(true);
  });

  it('refuses to run without a catalog', async () => {
    await db()('games').delete();
    try {
      await seedDemoPeople(db(), { accounts: 1, entriesPerAccount: 1 });
      expect.fail('should refuse');
    } catch (error) {
      expect((error as Error).message).to.match(/load the catalog first/);
    }
  });
});
