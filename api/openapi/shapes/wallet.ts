// The reference's shapes of minerals and awards (DECISIONS: Minerals and awards; Cursor reads;
// shared/wallet/presenters.ts, shared/awards/presenters.ts).
import { AWARD_TARGETS } from '../../../shared/awards/award-rules.js';
import { LEDGER_REASONS, LEDGER_SUBJECT_KINDS } from '../../../shared/wallet/rows.js';
import {
  answer,
  boolean,
  component,
  dateTime,
  integer,
  list,
  map,
  nullable,
  object,
  oneOf,
  string,
} from '../response-schemas.js';

export const Wallet = component(
  'Wallet',
  object(
    {
      balance: integer('Minerals you have now: the sum of your ledger, never negative.'),
      level: integer(
        '1 plus the number of thresholds (100, 300, 600, 1000, ... each step 100 more) that `lifetime` reached.',
      ),
      lifetime: integer(
        'Every mineral your ledger ever credited (posting, awards to your things, grants) less what deletions took back; spending does not lower it.',
      ),
      earned_today: integer('What posting earned you on this UTC day, up to `daily_cap`.'),
      daily_cap: integer('What posting can earn in a UTC day.'),
      next_level_at: integer('The `lifetime` that reaches the next level.'),
    },
    { description: 'Your minerals.' },
  ),
);

export const LedgerEntry = component(
  'LedgerEntry',
  object(
    {
      delta: integer('Minerals added (positive) or taken (negative).'),
      reason: oneOf(LEDGER_REASONS),
      subject: nullable(
        object(
          {
            kind: oneOf(LEDGER_SUBJECT_KINDS),
            id: string(
              'The thing’s id as clients name it (a list’s or screenshot’s public id); kept after it is deleted.',
            ),
          },
          { description: 'What the row is about: the thing posted, deleted or awarded.' },
        ),
      ),
      award: nullable(string('The award of an `award_given` or `award_received` row.')),
      note: nullable(string('An operator’s words for a grant.')),
      created_at: dateTime('To the microsecond: pass the last one back as `before`.'),
    },
    { description: 'One row of your mineral ledger.' },
  ),
);

export const AwardKind = component(
  'AwardKind',
  object(
    {
      id: string('What `POST /awards` names as `award`, and things count by in `awards`.'),
      name: string(),
      cost: integer('Minerals the giver pays; the author receives a fifth, rounded down.'),
    },
    { description: 'An award of the catalog.' },
  ),
);

export const GivenAward = component(
  'GivenAward',
  object(
    {
      on: oneOf(AWARD_TARGETS),
      id: string('The thing’s id as clients name it.'),
      award: string('The award’s id.'),
      award_name: string(),
      cost: integer('What you paid.'),
      author_credit: integer('What the thing’s author received: a fifth of the cost, rounded down.'),
      awards: map(integer(), 'The thing’s awards now, `{award id: count}`.'),
      balance: integer('Your balance after paying.'),
      created_at: dateTime(),
    },
    { description: 'An award you gave.' },
  ),
);

export const WALLET_ANSWERS = {
  wallet: answer(Wallet),
  ledger: object({
    data: list(LedgerEntry, 'Newest first.'),
    has_more: boolean(),
    next_before: nullable(dateTime('Pass it as `before` for the next page; null on the last.')),
  }),
};

export const AWARD_ANSWERS = {
  catalog: answer(list(AwardKind, 'Cheapest first.')),
  given: answer(GivenAward),
};
