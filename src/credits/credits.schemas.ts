import { Type, type Static } from '@sinclair/typebox';
import type { LedgerKind } from '../db/schema.js';
import { Defaulted } from '../json-schema.js';
import { PageParameter } from '../paging.js';

/** Every kind of credit movement: the history's filter and its entries' `kind`. */
export const LEDGER_KINDS: LedgerKind[] = ['signup', 'search', 'stats', 'purchase', 'adjustment'];

export const LedgerKindSchema = Type.Unsafe<LedgerKind>({
  type: 'string',
  enum: LEDGER_KINDS,
  description: `What moved the balance. ${'Open list: values may be added (a client must accept one it does not know).'}`,
  'x-enum-descriptions': [
    'The credits given at registration',
    'A search (charged, or free: a page with a valid token, no results)',
    'A statistics request',
    'A purchase, credited once its payment was confirmed',
    'An operator’s correction, or a refund taking credits back',
  ],
});

/** Query of GET /data/credits/history. */
export const HistoryQuerySchema = Type.Object(
  {
    from: Type.Optional(
      Type.String({ format: 'date-time', description: 'From this time (inclusive), ISO-8601.' }),
    ),
    to: Type.Optional(
      Type.String({ format: 'date-time', description: 'Up to this time (exclusive), ISO-8601.' }),
    ),
    kind: Type.Optional(LedgerKindSchema),
    page: PageParameter,
    per_page: Defaulted(
      Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Entries per page.' }),
    ),
  },
  { additionalProperties: false },
);
export type HistoryQuery = Static<typeof HistoryQuerySchema>;
