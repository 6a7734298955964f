// Minerals, verification and levels (spec: People rows; verification and levels need no scope).
import { Account } from '../../../shared/accounts/account.js';
import { levelsOf, mineralsOf, verificationOf } from '../../../shared/people/standing.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { isUuid } from '../../../shared/platform/validation/uuid.js';
import type { AppContext } from '../../context.js';
import { publicRoute, scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { PEOPLE_DOCS } from './people-docs.js';
import { noSuchPerson, pathPerson } from './person.js';

const personParams: SchemaObject = {
  type: 'object',
  required: ['username'],
  properties: { username: { type: 'string', maxLength: 100 } },
};
const levelsQuery: SchemaObject = {
  type: 'object',
  required: ['ids'],
  properties: {
    ids: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      uniqueItems: true,
      items: {
        type: 'string',
        pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
      },
    },
  },
};

/** The person of the path (a name, a 30-day alias, or here also an account id); hidden by a block is 404. */
async function person(ctx: AppContext, acceptId = false): Promise<Account> {
  const given = ctx.state.input.params.username as string;
  const byId = acceptId && isUuid(given) ? await Account.query(ctx.services.knex).findById(given) : undefined;
  if (byId && !byId.username) throw noSuchPerson();
  return (await pathPerson(ctx, 'library', byId?.username ?? given)).owner;
}

export function peopleStandingRoutes(api: VersionedRoutes): void {
  api.get(
    '/profiles/levels',
    publicRoute('read'),
    validate({ query: levelsQuery }),
    PEOPLE_DOCS.levels,
    async (ctx) => {
      ctx.body = { data: await levelsOf(ctx.services.knex, ctx.state.input.query.ids as string[]) };
    },
  );

  api.get(
    '/profiles/:username/minerals',
    scoped('profile.read', 'read', { anonymous: true }),
    validate({ params: personParams }),
    PEOPLE_DOCS.minerals,
    async (ctx) => {
      const owner = await person(ctx);
      ctx.body = { data: { username: owner.username, ...(await mineralsOf(ctx.services.knex, owner.id)) } };
    },
  );

  api.get(
    '/profiles/:username/verification',
    publicRoute('read'),
    validate({ params: personParams }),
    PEOPLE_DOCS.verification,
    async (ctx) => {
      const owner = await person(ctx, true);
      ctx.body = { data: await verificationOf(ctx.services.knex, owner.id) };
    },
  );
}
