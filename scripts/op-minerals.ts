// `npm run op -- minerals grant USERNAME AMOUNT REASON` (DECISIONS: Minerals and awards): operators grant
// minerals for events and promotions. One ledger row, outside the daily cap (and outside `earned_today`);
// it counts toward the person's lifetime earnings and level. REASON is every word after AMOUNT.
import { findByUsername } from '../shared/accounts/usernames.js';
import { grantMinerals } from '../shared/wallet/wallet.js';
import { GRANT_BOUNDS } from '../shared/wallet/rows.js';
import type { OpCommand } from './op-arcade.js';

const USAGE = `npm run op -- minerals grant USERNAME AMOUNT (${GRANT_BOUNDS.min} to ${GRANT_BOUNDS.max}) REASON`;

export const MINERAL_COMMANDS: Record<string, OpCommand> = {
  'minerals grant': {
    summary: 'grant minerals to an account (one ledger row, outside the daily cap); prints the new balance',
    args: 'USERNAME AMOUNT REASON',
    async run(knex, _config, args) {
      const [username, amountText, ...words] = args;
      const note = words.join(' ').trim();
      const amount = /^\d+$/.test(amountText ?? '') ? Number(amountText) : NaN;
      if (!username || !(amount >= GRANT_BOUNDS.min && amount <= GRANT_BOUNDS.max) || !note) {
        throw new Error(`usage: ${USAGE}`);
      }
      if ([...note].length > GRANT_BOUNDS.noteMax)
        throw new Error(`REASON is at most ${GRANT_BOUNDS.noteMax} characters`);
      const account = await findByUsername(knex, username);
      if (!account) throw new Error(`no account has the username "${username}"`);
      const balance = await grantMinerals(knex, account.id, amount, note);
      console.log(`${account.username}: +${amount} minerals (${note}); balance ${balance}`);
    },
  },
};
