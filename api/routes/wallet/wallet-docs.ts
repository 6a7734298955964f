// The reference's words for the wallet (DECISIONS: Minerals and awards; Cursor reads).
import { doc } from '../../openapi/route-facts.js';
import { WALLET_ANSWERS } from '../../openapi/shapes/wallet.js';

const EARNING =
  'Posting earns minerals: a review 10, a list 5, a screenshot 2, a closed play session 2 (once per session, when it is first closed), at most 50 in a UTC day (`earned_today`; what is past the cap earns nothing). Deleting the thing takes back what it earned, never more than your balance, and does not give the day’s room back. Awards to your things credit you a fifth of their cost, and operators grant minerals for events: both outside the cap and outside `earned_today`. Moderation’s removal takes nothing back.';

export const WALLET_DOCS = {
  wallet: doc({
    summary: 'Your minerals',
    description: `${EARNING} \`level\` is 1 plus the number of thresholds 100, 300, 600, 1000, ... (each step 100 more than the last) that \`lifetime\` has reached; a deletion’s take-back can lower it, spending cannot. \`/profiles/{username}/minerals\` shows others your balance and level.`,
    response: WALLET_ANSWERS.wallet,
    example: {
      data: { balance: 420, level: 3, lifetime: 515, earned_today: 12, daily_cap: 50, next_level_at: 600 },
    },
  }),
  ledger: doc({
    summary: 'Your mineral ledger',
    description: `Every row that moved your minerals, newest first, by cursor: \`before\` is the last row’s \`created_at\` (to the microsecond) and \`next_before\` is null on the last page. \`reason\`: \`posted\` (what posting \`subject\` earned), \`taken_back\` (\`subject\` deleted), \`award_given\` (spent on \`award\` for \`subject\`), \`award_received\` (a fifth of \`award\` given to your \`subject\`), \`grant\` (an operator’s, with \`note\`), \`opening\` (a balance from before the ledger). Your balance is the sum of every row. ${EARNING}`,
    response: WALLET_ANSWERS.ledger,
    example: {
      data: [
        {
          delta: -100,
          reason: 'award_given',
          subject: { kind: 'LIST', id: 'a41c09e7b2d5' },
          award: 'gg',
          note: null,
          created_at: '2026-11-24T21:14:08.512345Z',
        },
        {
          delta: 10,
          reason: 'posted',
          subject: { kind: 'REVIEW', id: '3f6b9c2e-8d41-4a7e-b0c5-9e2d7a1f4b63' },
          award: null,
          note: null,
          created_at: '2026-11-24T20:02:51.100231Z',
        },
      ],
      has_more: true,
      next_before: '2026-11-24T20:02:51.100231Z',
    },
  }),
};
