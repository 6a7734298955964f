// The owner's list folders (DECISIONS: Lists). Writes need `lists.write`; the owner reads their folders, with
// their counts, at GET /profiles/{username}/lists/folders.
import { idParams } from '../../../shared/content/content-fields.js';
import { createFolder, deleteFolder, renameFolder } from '../../../shared/lists/folder-commands.js';
import { presentFolder } from '../../../shared/lists/presenters.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { FOLDER_DOCS } from './lists-docs.js';
import { folderBody } from './schemas.js';

export function folderRoutes(api: VersionedRoutes): void {
  api.post(
    '/lists/folders',
    scoped('lists.write', 'write'),
    validate({ body: folderBody }),
    FOLDER_DOCS.create,
    async (ctx) => {
      const name = ctx.state.input.body.name as string;
      const folder = await createFolder(ctx.services.knex, ctx.state.caller!.account.id, name);
      ctx.status = 201;
      ctx.body = { data: presentFolder(folder) };
    },
  );

  api.patch(
    '/lists/folders/:id',
    scoped('lists.write', 'write'),
    validate({ params: idParams, body: folderBody }),
    FOLDER_DOCS.update,
    async (ctx) => {
      const { id } = ctx.state.input.params as { id: string };
      const name = ctx.state.input.body.name as string;
      const folder = await renameFolder(ctx.services.knex, ctx.state.caller!.account.id, id, name);
      ctx.body = { data: presentFolder(folder) };
    },
  );

  api.delete(
    '/lists/folders/:id',
    scoped('lists.write', 'write'),
    validate({ params: idParams }),
    FOLDER_DOCS.delete,
    async (ctx) => {
      const { id } = ctx.state.input.params as { id: string };
      await deleteFolder(ctx.services.knex, ctx.state.caller!.account.id, id);
      ctx.body = { data: { id, deleted: true } };
    },
  );
}
