// The moderation side DECISIONS adds (Staff and moderation): the report queue, resolving reports,
// infractions, the Arcade publisher block, and the record of moderator actions. Every route is session
// only, for moderators and admins whose session passed two-factor.
import { invalidRequest } from '../../../shared/platform/errors.js';
import { addInfraction, setPublisherBlock } from '../../../shared/moderation/account-sanctions.js';
import { infractionRuleViolation, type InfractionInput } from '../../../shared/moderation/infraction-rules.js';
import { listActions } from '../../../shared/moderation/moderator-actions.js';
import { listReports, type ReportStatus } from '../../../shared/reports/report-queue.js';
import { resolveReport, type ReportOutcome } from '../../../shared/reports/resolve-report.js';
import { sessionCaller, sessionOnly } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { infractionBody, pageQuery, publisherBody, reportQueueQuery, resolveBody } from './schemas.js';
import { staffWithTwoFactor } from './staff-access.js';
import { contentModerationRoutes } from './content.js';
import { MODERATION_DOCS } from './moderation-docs.js';
import { idParams } from '../schemas.js';

export function moderationRoutes(api: VersionedRoutes): void {
  const read = [sessionOnly({ allowance: 'read' }), staffWithTwoFactor()];
  const write = [sessionOnly({ allowance: 'write' }), staffWithTwoFactor()];

  api.get(
    '/moderation/reports',
    ...read,
    validate({ query: reportQueueQuery }),
    MODERATION_DOCS.reports,
    async (ctx) => {
      const { page, status } = ctx.state.input.query as { page: number; status?: ReportStatus };
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await listReports(ctx.services.knex, { page, status });
    },
  );

  api.post(
    '/moderation/reports/:id/resolve',
    ...write,
    validate({ params: idParams, body: resolveBody }),
    MODERATION_DOCS.resolve,
    async (ctx) => {
      const body = ctx.state.input.body as { outcome: ReportOutcome; note?: string };
      const id = ctx.state.input.params.id as string;
      ctx.body = { data: await resolveReport(ctx.services.knex, sessionCaller(ctx).account, id, body) };
    },
  );

  api.post(
    '/moderation/accounts/:id/infractions',
    ...write,
    validate({ params: idParams, body: infractionBody }),
    MODERATION_DOCS.infraction,
    async (ctx) => {
      const input = ctx.state.input.body as unknown as InfractionInput;
      const broken = infractionRuleViolation(input);
      if (broken) throw invalidRequest(broken.message, { field: broken.field, reason: broken.reason });
      const id = ctx.state.input.params.id as string;
      ctx.status = 201;
      ctx.body = { data: await addInfraction(ctx.services.knex, sessionCaller(ctx).account, id, input) };
    },
  );

  api.post(
    '/moderation/accounts/:id/publisher',
    ...write,
    validate({ params: idParams, body: publisherBody }),
    MODERATION_DOCS.publisher,
    async (ctx) => {
      const { blocked } = ctx.state.input.body as { blocked: boolean };
      const id = ctx.state.input.params.id as string;
      ctx.body = { data: await setPublisherBlock(ctx.services.knex, sessionCaller(ctx).account, id, blocked) };
    },
  );

  api.get('/moderation/actions', ...read, validate({ query: pageQuery }), MODERATION_DOCS.actions, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await listActions(ctx.services.knex, ctx.state.input.query.page as number);
  });

  contentModerationRoutes(api);
}
