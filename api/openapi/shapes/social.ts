// People as other people's pages show them, and the owner's connections (spec: Social; shared/people/
// presenters.ts, shared/social/connections.ts).
import {
  answer,
  boolean,
  component,
  dateTime,
  integer,
  list,
  nullable,
  object,
  string,
  uri,
} from '../response-schemas.js';
import { Page } from './pages-and-images.js';

const personMembers = {
  username: nullable(string('Null for an account that has not taken a name.')),
  display_name: string('Empty when unset.'),
  avatar_url: nullable(uri()),
};

export const PersonSummary = component(
  'PersonSummary',
  object(personMembers, { description: 'How a person shows inside someone else’s page.' }),
);

/** A person in a connection list, with when the connection was made. */
export const Connection = component(
  'Connection',
  object({ ...personMembers, since: dateTime() }, { description: 'A person and when the connection began.' }),
);

/** A person summary with more members (search, discovery). */
export const person = (more: Parameters<typeof object>[0]) => object({ ...personMembers, ...more });

export const SOCIAL_ANSWERS = {
  connections: answer(list(Connection, 'Newest first.'), { page: Page }),
  follow: answer(
    object({ username: string(), following: boolean(), requested: boolean() }, { description: 'At most one is true.' }),
  ),
  block: answer(object({ username: string(), blocked: boolean() })),
  approvedAll: answer(object({ approved: integer('Requests accepted.') })),
  declinedAll: answer(object({ declined: integer('Requests declined.') })),
  approved: answer(object({ username: string(), approved: boolean() })),
  declined: answer(object({ username: string(), declined: boolean('Whether a request was waiting.') })),
};
