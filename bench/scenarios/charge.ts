// What charging an allowance adds to a keyed request: the key-resolution statement with and without the
// allowance upsert, one at a time (no concurrency), interleaved in rounds. Target: about 1 ms at most.
import { Account } from '../../shared/accounts/account.js';
import { createKnex } from '../../shared/platform/db/knex.js';
import { createApp } from '../../shared/keys/apps.js';
import { findKeyCaller } from '../../shared/keys/key-caller.js';
import { createKey } from '../../shared/keys/keys.js';
import { summariseSamples } from '../lib/samples.js';
import type { Scenario } from '../scenario.js';

const CALLS_PER_ROUND = 2000;

async function time(call: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < CALLS_PER_ROUND; i += 1) {
    const started = performance.now();
    await call();
    samples.push(performance.now() - started);
  }
  return samples;
}

export const charge: Scenario = {
  description: 'key resolution statement with and without the allowance charge, sequential',
  target: 0,
  maxAddedMs: 1,
  async run({ database, rounds }) {
    const knex = createKnex(database.url, 2);
    try {
      const account = await Account.query(knex).insertAndFetch({ email: `charge-${Date.now()}@example.test` });
      const app = await createApp(knex, account.id, { name: 'charge' });
      const { token } = await createKey(knex, 'jgt_live_', account.id, app.id, { name: 'charge' });
      const lookup: number[] = [];
      const charged: number[] = [];
      for (let round = 0; round < rounds; round += 1) {
        lookup.push(...(await time(() => findKeyCaller(knex, token, null))));
        charged.push(...(await time(() => findKeyCaller(knex, token, 'read'))));
      }
      return {
        rows: [
          { name: 'lookup only', result: summariseSamples(lookup) },
          { name: 'lookup + charge', result: summariseSamples(charged) },
        ],
        baseline: 'lookup only',
        subject: 'lookup + charge',
      };
    } finally {
      await knex.destroy();
    }
  },
};
