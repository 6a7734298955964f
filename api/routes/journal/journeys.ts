// The owner's journeys (DECISIONS: Journal): a session or a key holding journal.read reads them (read
// allowance), journal.write writes them (write allowance). The owner sees every session a journey holds.
import { idParams } from '../../../shared/content/content-fields.js';
import { AUTHOR_SEES, journeysAsShown, listJourneys } from '../../../shared/journal/journey-reads.js';
import {
  createJourney,
  deleteJourney,
  updateJourney,
  type JourneyChanges,
  type JourneyInput,
} from '../../../shared/journal/journeys.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { JOURNEY_DOCS } from './journeys-docs.js';
import { journeyCreateBody, journeyPatchBody, journeysQuery } from './schemas.js';

export function journeyRoutes(api: VersionedRoutes): void {
  api.get(
    '/journal/journeys',
    scoped('journal.read', 'read'),
    validate({ query: journeysQuery }),
    JOURNEY_DOCS.list,
    async (ctx) => {
      const query = ctx.state.input.query as { page: number; limit: number };
      ctx.body = await listJourneys(ctx.services.knex, ctx.state.caller!.account.id, query);
    },
  );

  api.post(
    '/journal/journeys',
    scoped('journal.write', 'write'),
    validate({ body: journeyCreateBody }),
    JOURNEY_DOCS.create,
    async (ctx) => {
      const { knex } = ctx.services;
      const row = await createJourney(
        knex,
        ctx.state.caller!.account.id,
        ctx.state.input.body as unknown as JourneyInput,
      );
      ctx.status = 201;
      ctx.body = { data: (await journeysAsShown(knex, [row], AUTHOR_SEES))[0] };
    },
  );

  api.patch(
    '/journal/journeys/:id',
    scoped('journal.write', 'write'),
    validate({ params: idParams, body: journeyPatchBody }),
    JOURNEY_DOCS.update,
    async (ctx) => {
      const { knex } = ctx.services;
      const row = await updateJourney(
        knex,
        ctx.state.caller!.account.id,
        ctx.state.input.params.id as string,
        ctx.state.input.body as JourneyChanges,
      );
      ctx.body = { data: (await journeysAsShown(knex, [row], AUTHOR_SEES))[0] };
    },
  );

  api.delete(
    '/journal/journeys/:id',
    scoped('journal.write', 'write'),
    validate({ params: idParams }),
    JOURNEY_DOCS.delete,
    async (ctx) => {
      const id = ctx.state.input.params.id as string;
      await deleteJourney(ctx.services.knex, ctx.state.caller!.account.id, id);
      ctx.body = { data: { id, deleted: true } };
    },
  );
}
