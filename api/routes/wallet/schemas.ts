// The input of the wallet routes (DECISIONS: Minerals and awards; Cursor reads).
import { cursorQuery } from '../../../shared/content/content-fields.js';
import type { SchemaObject } from '../../../shared/platform/validation/ajv.js';
import { LEDGER_PAGE } from '../../../shared/wallet/rows.js';

export const ledgerQuery: SchemaObject = {
  type: 'object',
  properties: {
    ...cursorQuery,
    limit: { type: 'integer', minimum: LEDGER_PAGE.min, maximum: LEDGER_PAGE.max, default: LEDGER_PAGE.default },
  },
};
