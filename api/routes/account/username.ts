// The account's username: availability, the first name, and renames (spec: Username; Account routes).
import { renameAccount, setFirstUsername, usernameAvailable } from '../../../shared/accounts/usernames.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { sessionCaller, sessionOnly } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import { usernameSchema } from '../auth/schemas.js';
import type { VersionedRoutes } from '../versioned.js';
import { ACCOUNT_DOCS } from './account-docs.js';

// Any string is a question with an answer (spec: a string not shaped like a name gives `available` false,
// not an error; DECISIONS: however long), so `q` has no length limit here: usernameAvailable judges the
// shape, length first, before it reads anything, and the HTTP parser bounds the request line (431).
const availabilityQuery: SchemaObject = {
  type: 'object',
  required: ['q'],
  properties: { q: { type: 'string' } },
};
const usernameBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['username'],
  properties: { username: usernameSchema },
};

export function usernameRoutes(api: VersionedRoutes): void {
  api.get(
    '/account/username',
    sessionOnly({ allowance: 'read' }),
    validate({ query: availabilityQuery }),
    ACCOUNT_DOCS.usernameAvailable,
    async (ctx) => {
      const q = ctx.state.input.query.q as string;
      ctx.body = {
        data: { username: q, available: await usernameAvailable(ctx.services.knex, q, sessionCaller(ctx).account.id) },
      };
    },
  );

  api.put(
    '/account/username',
    sessionOnly({ allowance: 'write' }),
    validate({ body: usernameBody }),
    ACCOUNT_DOCS.claimUsername,
    async (ctx) => {
      const account = await setFirstUsername(
        ctx.services.knex,
        sessionCaller(ctx).account.id,
        ctx.state.input.body.username as string,
      );
      ctx.body = { data: { username: account.username, next_change_at: null } };
    },
  );

  api.patch(
    '/account/username',
    sessionOnly({ allowance: 'write' }),
    validate({ body: usernameBody }),
    ACCOUNT_DOCS.rename,
    async (ctx) => {
      const { account, next_change_at } = await renameAccount(
        ctx.services.knex,
        sessionCaller(ctx).account.id,
        ctx.state.input.body.username as string,
      );
      ctx.body = {
        data: {
          username: account.username,
          next_change_at: next_change_at.toISOString(),
        },
      };
    },
  );
}
