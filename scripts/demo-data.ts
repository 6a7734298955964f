// Demo data on demand, shared by `npm run seed:demo` and `npm run op -- demo seed`: the demo catalog when
// the database has none, then demo people and the demo Arcade game. Deterministic, so a repeat adds
// nothing for what exists already.
import type { Knex } from 'knex';
import { DEMO_GAME_SLUG, seedDemoArcadeGame } from '../db/seeds/demo-game.js';
import { loadDemoCatalog } from '../db/seeds/catalog/load-demo-catalog.js';
import { seedDemoPeople } from '../db/seeds/demo-people.js';

export const DEMO_DEFAULTS = { accounts: 200, entries: 50 };

/** Parses the counts given as text; null when either is not a whole number in its range. */
export function demoCounts(accounts: string, entries: string): { accounts: number; entries: number } | null {
  const counts = { accounts: Number(accounts), entries: Number(entries) };
  const fits =
    /^\d+$/.test(accounts) &&
    /^\d+$/.test(entries) &&
    counts.accounts >= 1 &&
    counts.entries >= 1 &&
    counts.entries <= 1000;
  return fits ? counts : null;
}

export async function seedDemoData(knex: Knex, counts: { accounts: number; entries: number }): Promise<void> {
  const started = Date.now();
  if (Number((await knex('games').count<{ n: number }[]>('* as n'))[0].n) === 0) {
    console.log('... loading the demo catalog first');
    await loadDemoCatalog(knex);
  }
  console.log(`... ${counts.accounts} demo people with ${counts.entries} library entries each`);
  const done = await seedDemoPeople(knex, { accounts: counts.accounts, entriesPerAccount: counts.entries });
  if (await seedDemoArcadeGame(knex)) console.log(`demo Arcade game: ${DEMO_GAME_SLUG}`);
  console.log(
    `demo people: ${done.accounts} account(s), ${done.entries} library entries, ${done.follows} follows, ` +
      `${done.activity} activity items, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}
