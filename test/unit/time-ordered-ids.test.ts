// Ids that grow with time (migration time_ordered_ids): version 7 UUIDs whose first 48 bits are the
// milliseconds they were made at, on the tables people write at a rate, and random ids everywhere else.
import { expect } from 'chai';
import { TIME_ORDERED } from '../../db/migrations/20261126001300_time_ordered_ids.js';
import { db } from '../../shared/platform/db/knex.js';
import { isUuid } from '../../shared/platform/validation/uuid.js';

/** Tables made after that migration with time-ordered ids from the start. */
const CREATED_TIME_ORDERED = ['app_events'];

const millisecondsOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe('time-ordered ids', () => {
  it('makes version 7 UUIDs of the RFC 9562 variant, stamped with the time they were made', async () => {
    const before = Date.now();
    const { rows } = await db().raw<{ rows: Array<{ id: string }> }>(
      'SELECT uuid_v7()::text AS id FROM generate_series(1, 500)',
    );
    const after = Date.now();
    const ids = rows.map((row) => row.id);
    expect(new Set(ids).size).to.equal(500);
    for (const id of ids) {
      expect(isUuid(id), id).to.equal(true);
      expect(id[14], id).to.equal('7');
      expect('89ab', id).to.include(id[19]);
      // The database's clock and this process's are the same machine's.
      expect(millisecondsOf(id)).to.be.within(before - 5, after + 5);
    }
  });

  it('orders ids made in later milliseconds after earlier ones', async () => {
    const first = (await db().raw<{ rows: Array<{ id: string }> }>('SELECT uuid_v7()::text AS id')).rows[0].id;
    await new Promise((resolve) => setTimeout(resolve, 3));
    const second = (await db().raw<{ rows: Array<{ id: string }> }>('SELECT uuid_v7()::text AS id')).rows[0].id;
    expect(second > first, `${second} after ${first}`).to.equal(true);
  });

  it('gives them to the rows people write at a rate, and keeps random ids where age is private', async () => {
    const defaults = await db()('information_schema.columns')
      .where({ table_schema: 'public', column_name: 'id' })
      .whereIn('column_default', ['uuid_v7()', 'gen_random_uuid()'])
      .select('table_name', 'column_default');
    const ordered = defaults.filter((row) => row.column_default === 'uuid_v7()').map((row) => row.table_name);
    expect(ordered.sort()).to.deep.equal([...TIME_ORDERED, ...CREATED_TIME_ORDERED].sort());
    const random = defaults.filter((row) => row.column_default === 'gen_random_uuid()').map((row) => row.table_name);
    expect(random).to.include.members(['accounts', 'api_keys', 'sessions', 'auth_tokens', 'passkeys']);
  });

  it('stamps a row written without an id', async () => {
    const before = Date.now();
    const [row] = await db()('email_outbox')
      .insert({ to_address: 'probe@example.test', subject: 'probe', text_body: 'probe', kind: 'probe' })
      .returning('id');
    expect(row.id[14]).to.equal('7');
    expect(millisecondsOf(row.id)).to.be.within(before - 5, Date.now() + 5);
  });
});
