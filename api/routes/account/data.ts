// The account's data: the export, and deletion by category (spec: Account routes; Proof for DELETE).
import {
  deleteAccountData,
  DELETION_CATEGORIES,
  type DeletionCategory,
} from '../../../shared/accounts/data-deletion.js';
import { exportAccount } from '../../../shared/accounts/export.js';
import { proveDeletion, type DeletionProof } from '../../../shared/auth/deletion-proof.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { sessionCaller, sessionOnly } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { ACCOUNT_DOCS } from './account-docs.js';

const deletionQuery: SchemaObject = {
  type: 'object',
  required: ['category'],
  properties: { category: { type: 'string', enum: [...DELETION_CATEGORIES] } },
};
const deletionBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  properties: {
    password: { type: 'string', minLength: 1, maxLength: 128 },
    code: { type: 'string', minLength: 6, maxLength: 20 },
  },
};

export function dataRoutes(api: VersionedRoutes): void {
  api.get('/account/export', sessionOnly({ allowance: 'read', mfa: true }), ACCOUNT_DOCS.export, async (ctx) => {
    const { account } = sessionCaller(ctx);
    const day = new Date().toISOString().slice(0, 10);
    ctx.set(
      'Content-Disposition',
      `attachment; filename="jogatina-export-${account.username ?? account.id}-${day}.json"`,
    );
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = exportAccount(ctx.services.knex, account.id, ctx.services.log);
  });

  // Rule 1 first: a session owing its second factor is refused before the body is even read.
  api.delete(
    '/account/data',
    sessionOnly({ allowance: 'write', mfa: true }),
    validate({ query: deletionQuery, body: deletionBody }),
    ACCOUNT_DOCS.deleteData,
    async (ctx) => {
      const { account, session } = sessionCaller(ctx);
      const category = ctx.state.input.query.category as DeletionCategory;
      await proveDeletion(ctx.services.auth, account, session, ctx.state.input.body as DeletionProof);
      // No category ends a sign-in session (shared/accounts/data-deletion.ts): the caller stays signed in.
      const removed = await deleteAccountData(ctx.services.knex, account.id, category);
      ctx.body = { data: { category, removed } };
    },
  );
}
