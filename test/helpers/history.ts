// A person's history in tests (DECISIONS: History): a view is written after the read's answer has gone out,
// so a test that reads waits for the row rather than for time, and a test that expects nothing recorded
// ends with a recorded read of its own (a marker) and waits for that one.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { catalogGame, type NamedPerson } from './people.js';
import { until } from './wait.js';

export type Viewed = { game: number } | { profile: string };

const subject = (thing: Viewed): [string, number | string] =>
  'game' in thing ? ['game_id', thing.game] : ['profile_id', thing.profile];

/** The stored time of the person's view of `thing` as text (to the microsecond), or null. */
export async function viewedAt(accountId: string, thing: Viewed): Promise<string | null> {
  const [column, id] = subject(thing);
  const { rows } = await db().raw<{ rows: Array<{ at: string }> }>(
    `SELECT viewed_at::text AS at FROM view_history WHERE account_id = ? AND ${column} = ?`,
    [accountId, id],
  );
  return rows[0]?.at ?? null;
}

/** Reads `path` as the person (it must answer 200) and waits until the view of `thing` is newly written. */
export async function view(person: NamedPerson, path: string, thing: Viewed): Promise<void> {
  const before = await viewedAt(person.account.id, thing);
  const res = await person.site.get(path);
  expect(res.status, res.text).to.equal(200);
  await until(async () => {
    const after = await viewedAt(person.account.id, thing);
    return after !== null && after !== before;
  });
}

/** A game the person views last: once it is written, any view sent before it would have been too. */
export async function viewMarker(person: NamedPerson): Promise<number> {
  const game = await catalogGame();
  await view(person, `/api/v1/games/${game.slug}`, { game: game.id });
  return game.id;
}

/** The person's recorded views as `game:<id>` and `profile:<account id>`, newest first. */
export async function recorded(accountId: string): Promise<string[]> {
  const rows: Array<{ game_id: number | null; profile_id: string | null }> = await db()('view_history')
    .where({ account_id: accountId })
    .orderBy([
      { column: 'viewed_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .select('game_id', 'profile_id');
  return rows.map((row) => (row.game_id === null ? `profile:${row.profile_id}` : `game:${row.game_id}`));
}

/** Sets when the person last viewed `thing`, to walk the cursor over known instants or age a view. */
export async function setViewedAt(accountId: string, thing: Viewed, at: string | Date): Promise<void> {
  const [column, id] = subject(thing);
  await db()('view_history')
    .where({ account_id: accountId, [column]: id })
    .update({ viewed_at: at });
}
