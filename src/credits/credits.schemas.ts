import { Type, type Static } from '@sinclair/typebox';
import type { LedgerKind } from '../db/schema.js';
import { Defaulted } from '../json-schema.js';
import { PageParameter } from '../paging.js';

/** Every kind of credit movement: the history's filter and its entries' `kind`. */
export const LEDGER_KINDS: LedgerKind[] = ['signup', 'search', 'stats', 'purchase', 'adjustment'];

/** Query of GET /data/credits/history. */
export const HistoryQuerySchema = Type.Object(
  {
    from: Type.Optional(Type.String({ format: 'date-time', description: 'Desde (inclusive), ISO-8601' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'Até (exclusive), ISO-8601' })),
    kind: Type.Optional(Type.Unsafe<LedgerKind>({ type: 'string', enum: LEDGER_KINDS })),
    page: PageParameter,
    per_page: Defaulted(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  },
  { additionalProperties: false },
);
export type HistoryQuery = Static<typeof HistoryQuerySchema>;
