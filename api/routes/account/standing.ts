// Account state, birth date, sign-in identities and linked connections (all session only).
import { presentBirthDate, setBirthDate } from '../../../shared/accounts/birth-date.js';
import { bootstrapAccount } from '../../../shared/accounts/bootstrap.js';
import { forgetConnection, isConnectionService, listIdentities } from '../../../shared/accounts/connections.js';
import { accountStanding } from '../../../shared/accounts/standing.js';
import { notFound } from '../../../shared/platform/errors.js';
import { onePage } from '../../../shared/platform/paging/paging.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { sessionCaller, sessionOnly } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { ACCOUNT_DOCS } from './account-docs.js';

const birthDateBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['birth_date'],
  properties: { birth_date: { type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } },
};
const serviceParams: SchemaObject = {
  type: 'object',
  required: ['service'],
  properties: { service: { type: 'string', maxLength: 40 } },
};

const bootstrapQuery: SchemaObject = {
  type: 'object',
  properties: { adopt_twitch: { type: 'boolean', default: false } },
};

export function standingRoutes(api: VersionedRoutes): void {
  api.post(
    '/account/bootstrap',
    sessionOnly({ allowance: 'write' }),
    validate({ query: bootstrapQuery }),
    ACCOUNT_DOCS.bootstrap,
    async (ctx) => {
      const result = await bootstrapAccount(ctx.services.knex, sessionCaller(ctx).account.id, {
        adoptTwitch: ctx.state.input.query.adopt_twitch === true,
      });
      ctx.body = { data: { ready: true, ...result } };
    },
  );

  api.get('/account/state', sessionOnly({ allowance: 'read' }), ACCOUNT_DOCS.state, async (ctx) => {
    const { account } = sessionCaller(ctx);
    ctx.body = { data: await accountStanding(ctx.services.knex, account.id, account.username) };
  });

  api.get('/account/birth-date', sessionOnly({ allowance: 'read' }), ACCOUNT_DOCS.birthDate, async (ctx) => {
    ctx.body = { data: presentBirthDate(sessionCaller(ctx).account) };
  });

  api.put(
    '/account/birth-date',
    sessionOnly({ allowance: 'write' }),
    validate({ body: birthDateBody }),
    ACCOUNT_DOCS.setBirthDate,
    async (ctx) => {
      const account = await setBirthDate(
        ctx.services.knex,
        sessionCaller(ctx).account.id,
        ctx.state.input.body.birth_date as string,
      );
      ctx.body = { data: presentBirthDate(account) };
    },
  );

  api.get('/account/identities', sessionOnly({ allowance: 'read' }), ACCOUNT_DOCS.identities, async (ctx) => {
    const identities = await listIdentities(ctx.services.knex, sessionCaller(ctx).account);
    // Collections answer `page`; the identities come whole, on one page (DECISIONS, Fine print).
    ctx.body = { data: identities, page: onePage(identities.length) };
  });

  api.delete(
    '/account/connections/:service',
    sessionOnly({ allowance: 'write' }),
    validate({ params: serviceParams }),
    ACCOUNT_DOCS.forgetConnection,
    async (ctx) => {
      const service = ctx.state.input.params.service as string;
      if (!isConnectionService(service))
        throw notFound(`There is no linkable service "${service}".`, 'service_not_found');
      const removed = await forgetConnection(ctx.services.knex, sessionCaller(ctx).account.id, service);
      ctx.body = { data: { service, removed } };
    },
  );
}
