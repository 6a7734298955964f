// The input of the award routes (DECISIONS: Minerals and awards; Refusals): what the schema can see is
// refused with validation's reasons, an award the catalog does not have among them (field `award`).
import { AWARD_IDS } from '../../../shared/awards/award-catalog.js';
import { AWARD_TARGETS } from '../../../shared/awards/award-rules.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';

export const awardBody: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['on', 'id', 'award'],
  properties: {
    on: { type: 'string', enum: [...AWARD_TARGETS] },
    id: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      description: 'Reviews and journeys: their id; lists and screenshots: their public id.',
    },
    award: { type: 'string', enum: [...AWARD_IDS] },
  },
};
