// The owner's own copies (spec: GET /library/copies, Pagination rule 4; DECISIONS: Library): a session or a
// key holding library.read to list them (paged by an opaque cursor signed with the server secret), and
// library.write to add, change and delete them.
import { listCopies, type CopyQuery } from '../../../shared/library/copies.js';
import { createCopy, deleteCopy, updateCopy, type CopyFields } from '../../../shared/library/copy-writes.js';
import { presentCopy } from '../../../shared/library/presenters.js';
import { idParams } from '../../../shared/content/content-fields.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { COPY_DOCS } from './copies-docs.js';
import { copiesQuery, copyCreateBody, copyPatchBody } from './copy-schemas.js';

export function libraryCopyRoutes(api: VersionedRoutes): void {
  api.get(
    '/library/copies',
    scoped('library.read', 'read'),
    validate({ query: copiesQuery }),
    COPY_DOCS.list,
    async (ctx) => {
      const { knex, auth } = ctx.services;
      const query = ctx.state.input.query as unknown as CopyQuery;
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = await listCopies(knex, auth.secret, ctx.state.caller!.account.id, query);
    },
  );

  api.post(
    '/library/copies',
    scoped('library.write', 'write'),
    validate({ body: copyCreateBody }),
    COPY_DOCS.create,
    async (ctx) => {
      const body = ctx.state.input.body as unknown as CopyFields;
      const copy = await createCopy(ctx.services.knex, ctx.state.caller!.account.id, body);
      ctx.status = 201;
      ctx.body = { data: presentCopy(copy) };
    },
  );

  api.patch(
    '/library/copies/:id',
    scoped('library.write', 'write'),
    validate({ params: idParams, body: copyPatchBody }),
    COPY_DOCS.update,
    async (ctx) => {
      const id = ctx.state.input.params.id as string;
      const changes = ctx.state.input.body as Partial<CopyFields>;
      ctx.body = { data: presentCopy(await updateCopy(ctx.services.knex, ctx.state.caller!.account.id, id, changes)) };
    },
  );

  api.delete(
    '/library/copies/:id',
    scoped('library.write', 'write'),
    validate({ params: idParams }),
    COPY_DOCS.delete,
    async (ctx) => {
      const id = ctx.state.input.params.id as string;
      await deleteCopy(ctx.services.knex, ctx.state.caller!.account.id, id);
      ctx.body = { data: { id, deleted: true } };
    },
  );
}
