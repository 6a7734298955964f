// The person a people route is about: the path's name (current or a 30-day alias), what the reader may
// see of them, and the reader's relation for per-item visibility. A name nobody holds, and a person
// hidden by a block in either direction, are the same 404.
import type { Account } from '../../../shared/accounts/account.js';
import { notFound } from '../../../shared/platform/errors.js';
import { relationTo, type ReaderRelation } from '../../../shared/people/item-visibility.js';
import { findPerson, viewsOf, type FoundPerson, type ProfileView } from '../../../shared/people/visibility.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import type { AppContext } from '../../context.js';

export const usernameParam: SchemaObject = { type: 'string', maxLength: 100 };
export const personParams: SchemaObject = {
  type: 'object',
  required: ['username'],
  properties: { username: usernameParam },
};

export interface PathPerson {
  owner: Account;
  readerId: string | null;
  /** How much of the library the reader sees ('full' or 'public'). */
  library: Exclude<ProfileView, 'hidden'>;
  follows: boolean;
}

export function noSuchPerson() {
  return notFound('No one has this username.');
}

/**
 * `pages`: decide by the profile pages' rule (layout, connections) instead of the library's. `name`
 * defaults to the path's `username`.
 */
export async function pathPerson(
  ctx: AppContext,
  rule: 'library' | 'pages' = 'library',
  name = ctx.state.input.params.username as string,
): Promise<PathPerson> {
  const readerId = ctx.state.caller?.account.id ?? null;
  return seenPerson(await findPerson(ctx.services.knex, name, readerId), readerId, rule);
}

/** What the reader may see of a person already looked up (null: nobody holds the name); 404 when nothing. */
export function seenPerson(
  found: FoundPerson | null,
  readerId: string | null,
  rule: 'library' | 'pages' = 'library',
): PathPerson {
  if (!found) throw noSuchPerson();
  const views = viewsOf(found, readerId);
  const view = rule === 'pages' ? views.pages : views.library;
  if (view === 'hidden') throw noSuchPerson();
  return { owner: found.owner, readerId, library: view, follows: found.follows };
}

/** The reader's relation to the person, for items that carry their own visibility. */
export function relationOf(person: PathPerson): ReaderRelation {
  return relationTo(person.readerId, person.owner.id, person.follows);
}
