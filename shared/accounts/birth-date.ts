// The stored birth date and how it was confirmed. The database owns the rule that a date less than 13
// years ago is refused (a trigger raising a named check violation, mapped here to 400).
import type { Knex } from 'knex';
import { registerConstraint } from '../platform/db/database-errors.js';
import { invalidRequest } from '../platform/errors.js';
import { Account } from './account.js';

registerConstraint('accounts_birth_date_old_enough', () =>
  invalidRequest('birth_date must be at least 13 years ago.', { field: 'birth_date', reason: 'too_recent' }),
);
registerConstraint('accounts_birth_date_plausible', () =>
  invalidRequest('birth_date must be 1900-01-01 or later.', { field: 'birth_date', reason: 'out_of_range' }),
);

export function presentBirthDate(account: Pick<Account, 'birth_date' | 'birth_date_confirmed_by'>) {
  return { birth_date: account.birth_date, confirmed_by: account.birth_date_confirmed_by };
}

/** A date the account states itself counts as self-declared, replacing any earlier confirmation. */
export async function setBirthDate(knex: Knex, accountId: string, birthDate: string): Promise<Account> {
  return Account.query(knex).patchAndFetchById(accountId, {
    birth_date: birthDate,
    birth_date_confirmed_by: 'self_declared',
  });
}
