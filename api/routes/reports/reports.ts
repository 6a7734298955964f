// POST /reports (spec: Reports): any live key may report (the spec names the write allowance and no
// scope), a session needs nothing. The answer says only that the report arrived; there is no read side.
// ARCADE_APP is session only (Authentication rule 8), checked once the body says what is reported.
import { forbidden, invalidRequest } from '../../../shared/platform/errors.js';
import {
  DETAILS_MAX,
  REPORT_KINDS,
  REPORT_REASONS,
  reportRuleViolation,
  type ReportInput,
} from '../../../shared/reports/report-rules.js';
import { fileReport } from '../../../shared/reports/reports.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { REPORT_DOCS } from './report-docs.js';

const reportBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['on', 'reason'],
  properties: {
    on: { type: 'string', enum: [...REPORT_KINDS] },
    reason: { type: 'string', enum: [...REPORT_REASONS] },
    username: { type: 'string', minLength: 1, maxLength: 100 },
    id: { type: 'string', minLength: 1, maxLength: 200 },
    details: { type: 'string', maxLength: DETAILS_MAX },
    instance_id: { type: 'string', format: 'uuid' },
  },
};

export function reportRoutes(api: VersionedRoutes): void {
  api.post('/reports', scoped(null, 'write'), validate({ body: reportBody }), REPORT_DOCS.file, async (ctx) => {
    const input = ctx.state.input.body as unknown as ReportInput;
    const caller = ctx.state.caller!;
    if (input.on === 'ARCADE_APP' && caller.key) {
      throw forbidden(undefined, {}, 'Reports on Arcade games come from the website’s signed-in session only.');
    }
    const broken = reportRuleViolation(input);
    if (broken) throw invalidRequest(broken.message, { field: broken.field, reason: broken.reason });
    await fileReport(ctx.services.knex, caller.account, input);
    ctx.status = 201;
    ctx.body = { data: { received: true } };
  });
}
