// Lists and their folders, written by their owner (DECISIONS: Lists). Writes need `lists.write` and spend the
// write allowance; the one-list read is public, as the person's lists are.
import { idParams } from '../../../shared/content/content-fields.js';
import { createList, deleteList, replaceListItems, updateList } from '../../../shared/lists/list-commands.js';
import { answerKeepable } from '../../../shared/people/item-visibility.js';
import { refuseItemsInPatch } from '../../../shared/lists/list-rules.js';
import { readList } from '../../../shared/lists/load-list.js';
import { presentList } from '../../../shared/lists/presenters.js';
import type { ListChanges, ListInput, ListItemInput } from '../../../shared/lists/rows.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { folderRoutes } from './folders.js';
import { LIST_DOCS } from './lists-docs.js';
import { listCreateBody, listItemsBody, listPatchBody } from './schemas.js';

export function listRoutes(api: VersionedRoutes): void {
  folderRoutes(api);

  api.post(
    '/lists',
    scoped('lists.write', 'write'),
    validate({ body: listCreateBody }),
    LIST_DOCS.create,
    async (ctx) => {
      const input = ctx.state.input.body as unknown as ListInput;
      const list = await createList(ctx.services.knex, ctx.state.caller!.account.id, input);
      ctx.status = 201;
      ctx.body = { data: presentList(list, true) };
    },
  );

  api.get(
    '/lists/:id',
    scoped('lists.read', 'read', { anonymous: true }),
    validate({ params: idParams }),
    LIST_DOCS.get,
    async (ctx) => {
      const readerId = ctx.state.caller?.account.id ?? null;
      const shown = await readList(ctx.services.knex, ctx.state.input.params.id as string, readerId);
      // Only an anonymous read of a PUBLIC list is the same for everyone who may ask it again.
      if (!answerKeepable(shown.list.visibility, readerId)) ctx.set('Cache-Control', 'private, no-store');
      ctx.body = { data: presentList(shown, shown.list.account_id === readerId) };
    },
  );

  api.patch(
    '/lists/:id',
    scoped('lists.write', 'write'),
    validate({ params: idParams, body: listPatchBody }),
    LIST_DOCS.update,
    async (ctx) => {
      const changes = ctx.state.input.body as ListChanges;
      refuseItemsInPatch(changes);
      const id = ctx.state.input.params.id as string;
      const list = await updateList(ctx.services.knex, ctx.state.caller!.account.id, id, changes);
      ctx.body = { data: presentList(list, true) };
    },
  );

  api.put(
    '/lists/:id/items',
    scoped('lists.write', 'write'),
    validate({ params: idParams, body: listItemsBody }),
    LIST_DOCS.items,
    async (ctx) => {
      const items = ctx.state.input.body.items as ListItemInput[];
      const id = ctx.state.input.params.id as string;
      const list = await replaceListItems(ctx.services.knex, ctx.state.caller!.account.id, id, items);
      ctx.body = { data: presentList(list, true) };
    },
  );

  api.delete(
    '/lists/:id',
    scoped('lists.write', 'write'),
    validate({ params: idParams }),
    LIST_DOCS.delete,
    async (ctx) => {
      const id = ctx.state.input.params.id as string;
      await deleteList(ctx.services.knex, ctx.state.caller!.account.id, id);
      ctx.body = { data: { id, deleted: true } };
    },
  );
}
