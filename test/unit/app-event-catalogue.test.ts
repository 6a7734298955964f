// The catalogue of events for integrations is written twice: shared/events/event-types.ts (what the API
// takes and checks scopes by) and the migration app_events (the triggers' types, app_event_scope() and the
// two CHECKs). Held equal here, so a type added to one list only fails.
import { expect } from 'chai';
import { EVENT_TYPES, EVENT_TYPE_SCOPES } from '../../shared/events/event-types.js';
import { db } from '../../shared/platform/db/knex.js';

/** The quoted words of a CHECK constraint's definition, as PostgreSQL prints it. */
async function typesOfCheck(table: string, name: string): Promise<string[]> {
  const { rows } = await db().raw<{ rows: Array<{ definition: string }> }>(
    `SELECT pg_get_constraintdef(c.oid) AS definition FROM pg_constraint c
     WHERE c.conrelid = CAST(? AS regclass) AND c.conname = ?`,
    [table, name],
  );
  expect(rows, `${table}.${name}`).to.have.length(1);
  return [...rows[0].definition.matchAll(/'([^']+)'::text/g)].map((match) => match[1]);
}

describe('the event catalogue in the database', () => {
  it('answers each type’s scope from app_event_scope() as EVENT_TYPE_SCOPES has it, and none for others', async () => {
    const { rows } = await db().raw<{ rows: Array<{ type: string; scope: string | null }> }>(
      'SELECT t AS type, app_event_scope(t) AS scope FROM unnest(CAST(? AS text[])) AS t',
      [[...EVENT_TYPES, 'library.entry.burned'] as unknown as string],
    );
    expect(Object.fromEntries(rows.map((row) => [row.type, row.scope]))).to.deep.equal({
      ...EVENT_TYPE_SCOPES,
      'library.entry.burned': null,
    });
  });

  it('accepts exactly the catalogue in the app_events type CHECK and the subscription types CHECK', async () => {
    expect((await typesOfCheck('app_events', 'app_events_type')).sort()).to.deep.equal([...EVENT_TYPES].sort());
    expect((await typesOfCheck('app_event_subscriptions', 'app_event_subscriptions_types')).sort()).to.deep.equal(
      [...EVENT_TYPES].sort(),
    );
  });

  it('stores every type of the catalogue and refuses one outside it, in both tables', async () => {
    /** Writes a subscription to `subscribed` and an event of each of `written`, then rolls back. */
    const attempt = (subscribed: string[], written: string[]) =>
      db()
        .transaction(async (trx) => {
          const [account] = await trx('accounts').insert({ email: 'catalogue@example.com' }).returning('id');
          const [app] = await trx('apps').insert({ account_id: account.id, name: 'catalogue' }).returning('id');
          const url = 'https://example.com/events';
          await trx('app_event_subscriptions').insert({
            app_id: app.id,
            account_id: account.id,
            url,
            types: subscribed,
          });
          await trx('app_events').insert(
            written.map((type) => ({ app_id: app.id, account_id: account.id, type, subject: type })),
          );
          throw new Error('rolled back');
        })
        .catch((error: Error & { constraint?: string }) => error.constraint ?? error.message);
    expect(await attempt([...EVENT_TYPES], [...EVENT_TYPES])).to.equal('rolled back');
    expect(await attempt(['ping', 'library.entry.burned'], ['ping'])).to.equal('app_event_subscriptions_types');
    expect(await attempt(['ping'], ['ping', 'library.entry.burned'])).to.equal('app_events_type');
  });
});
