// The owner's library (DECISIONS: Library): the whole of it, and one game's entry read, put, changed and
// deleted. `{game}` is a catalog id or slug; the fixed segments `copies` and `import` are declared before
// these routes (library.ts), and a method those routes do not take is 405 here, never a game of that slug.
import { deleteEntry, findEntry, patchEntry, pathGame, putEntry } from '../../../shared/library/entries.js';
import { sentFields, wholeEntry, type EntryFields } from '../../../shared/library/entry-rules.js';
import { readOwnLibrary, type OwnLibraryQuery } from '../../../shared/library/own-library.js';
import { presentEntry } from '../../../shared/library/presenters.js';
import { methodNotAllowed } from '../../../shared/platform/errors.js';
import type { AppContext } from '../../context.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { ENTRY_DOCS } from './entries-docs.js';
import { entryBody, gameParams, ownLibraryQuery } from './entry-schemas.js';

/** The methods of the fixed routes beside `/library/{game}`. */
// A Map, not an object: a slug such as `constructor` must not find one of an object's own methods.
const FIXED_SEGMENTS = new Map<string, string[]>([
  ['copies', ['GET', 'POST']],
  ['import', ['POST']],
]);

/** The caller and `{game}` as the path gives it (the writes find the game in their first statement). */
function named(ctx: AppContext): { accountId: string; segment: string } {
  const segment = ctx.state.input.params.game as string;
  const fixed = FIXED_SEGMENTS.get(segment.toLowerCase());
  if (fixed) throw methodNotAllowed(fixed);
  return { accountId: ctx.state.caller!.account.id, segment };
}

/** The caller and the game the path names. */
async function target(ctx: AppContext) {
  const { accountId, segment } = named(ctx);
  return { accountId, game: await pathGame(ctx.services.knex, accountId, segment) };
}

export function libraryEntryRoutes(api: VersionedRoutes): void {
  const read = scoped('library.read', 'read');
  const write = scoped('library.write', 'write');

  api.get('/library', read, validate({ query: ownLibraryQuery }), ENTRY_DOCS.library, async (ctx) => {
    const query = ctx.state.input.query as unknown as OwnLibraryQuery;
    ctx.body = await readOwnLibrary(ctx.services.knex, ctx.state.caller!.account.id, query);
  });

  api.get('/library/:game', read, validate({ params: gameParams }), ENTRY_DOCS.get, async (ctx) => {
    const { accountId, game } = await target(ctx);
    ctx.body = { data: presentEntry(await findEntry(ctx.services.knex, accountId, game)) };
  });

  api.put('/library/:game', write, validate({ params: gameParams, body: entryBody }), ENTRY_DOCS.put, async (ctx) => {
    const { accountId, segment } = named(ctx);
    const fields = wholeEntry(ctx.state.input.body as Partial<EntryFields>);
    const { entry, created } = await putEntry(ctx.services.knex, accountId, segment, fields);
    ctx.status = created ? 201 : 200;
    ctx.body = { data: presentEntry(entry) };
  });

  api.patch(
    '/library/:game',
    write,
    validate({ params: gameParams, body: entryBody }),
    ENTRY_DOCS.patch,
    async (ctx) => {
      const { accountId, segment } = named(ctx);
      const fields = sentFields(ctx.state.input.body as Partial<EntryFields>);
      ctx.body = { data: presentEntry(await patchEntry(ctx.services.knex, accountId, segment, fields)) };
    },
  );

  api.delete('/library/:game', write, validate({ params: gameParams }), ENTRY_DOCS.delete, async (ctx) => {
    const { accountId, game } = await target(ctx);
    await deleteEntry(ctx.services.knex, accountId, game.id);
    ctx.body = { data: { game_id: game.id, deleted: true } };
  });
}
