// `npm run op -- minerals grant USERNAME AMOUNT REASON` as a process: one ledger row, outside the daily cap,
// the new balance printed; refused arguments exit non-zero and write nothing.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { buildAccount } from '../helpers/factories.js';
import { review } from '../helpers/people.js';
import { runOp } from '../helpers/processes.js';

describe('npm run op -- minerals grant', function () {
  this.timeout(60000);
  useCleanDatabase();

  const rowsOf = (accountId: string) => db()('mineral_ledger').where({ account_id: accountId }).orderBy('id');

  it('is listed in --help', async () => {
    const result = await runOp(['--help']);
    expect(result.code).to.equal(0);
    expect(result.output).to.match(/minerals grant USERNAME AMOUNT REASON +grant minerals to an account/);
  });

  it('writes one ledger row outside the daily cap and prints the new balance', async () => {
    const { account } = await buildAccount({ username: 'event_winner' });
    // Five reviews: the day's posting is at its cap.
    for (let i = 0; i < 5; i += 1) await review(account.id);
    const result = await runOp(['minerals', 'grant', 'event_winner', '250', 'Summer', 'tournament', 'winner']);
    expect(result.code, result.output).to.equal(0);
    expect(result.output).to.include('event_winner: +250 minerals (Summer tournament winner); balance 300');
    const rows = await rowsOf(account.id);
    expect(rows.at(-1)).to.deep.include({ delta: 250, reason: 'grant', note: 'Summer tournament winner' });
    const balance = await db()('mineral_balances').where({ account_id: account.id }).first();
    expect(balance).to.deep.include({ posted_today: 50, level: 3 });
    expect(Number(balance.balance)).to.equal(300);
    expect(Number(balance.lifetime)).to.equal(300);
  });

  it('exits non-zero and writes nothing for an unknown username or a bad amount or reason', async () => {
    const { account } = await buildAccount({ username: 'plain_player' });
    for (const args of [
      ['minerals', 'grant', 'nobody_here', '10', 'promo'],
      ['minerals', 'grant', 'plain_player', '0', 'promo'],
      ['minerals', 'grant', 'plain_player', '-5', 'promo'],
      ['minerals', 'grant', 'plain_player', '2.5', 'promo'],
      ['minerals', 'grant', 'plain_player', '1000001', 'promo'],
      ['minerals', 'grant', 'plain_player', 'ten', 'promo'],
      ['minerals', 'grant', 'plain_player', '10'],
      ['minerals', 'grant', 'plain_player', '10', 'x'.repeat(201)],
      ['minerals', 'grant'],
    ]) {
      const result = await runOp(args);
      expect(result.code, args.join(' ')).to.equal(1);
      expect(result.output).to.match(/^Failed: /m);
    }
    expect(await rowsOf(account.id)).to.deep.equal([]);
  });
});
