import { INFRACTION_REASONS } from '../../../shared/moderation/infraction-rules.js';
import { REPORT_STATUSES } from '../../../shared/reports/report-queue.js';
import { REPORT_OUTCOMES } from '../../../shared/reports/resolve-report.js';
import { pageParameter } from '../../../shared/platform/paging/paging.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';

export const pageQuery: SchemaObject = { type: 'object', properties: { page: pageParameter() } };

export const reportQueueQuery: SchemaObject = {
  type: 'object',
  properties: { page: pageParameter(), status: { type: 'string', enum: [...REPORT_STATUSES] } },
};

export const resolveBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['outcome'],
  properties: {
    outcome: { type: 'string', enum: [...REPORT_OUTCOMES] },
    note: { type: 'string', maxLength: 1000 },
  },
};

export const infractionBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['reason'],
  properties: {
    reason: { type: 'string', enum: [...INFRACTION_REASONS] },
    details: { type: ['string', 'null'], maxLength: 1000 },
    expires_at: { type: ['string', 'null'], format: 'date-time' },
  },
};

export const publisherBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['blocked'],
  properties: { blocked: { type: 'boolean' } },
};
