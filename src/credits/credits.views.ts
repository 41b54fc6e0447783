import { tokenStatusSchema } from '../search/search.views.js';
import type { CreditBalance } from './credits-service.js';
import { LedgerKindSchema } from './credits.schemas.js';

export const balanceSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'credits', 'daily_credit_limit', 'spent_today'],
  description: 'The account’s credits.',
  properties: {
    success: { const: true },
    credits: { type: 'integer', minimum: 0, description: 'The balance.' },
    daily_credit_limit: {
      type: ['integer', 'null'],
      description:
        'Credits the account may spend per UTC day: the lower of its own limit and its plan’s; null: no limit.',
    },
    spent_today: { type: 'integer', minimum: 0, description: 'Credits spent today (UTC day).' },
  },
};

export const balanceView = (balance: CreditBalance) => ({
  success: true,
  credits: balance.credits,
  daily_credit_limit: balance.dailyCreditLimit,
  spent_today: balance.spentToday,
});

/** A search as the history keeps it: its fields as the engines read them (normalized). */
const searchQuerySchema = {
  type: 'object',
  description:
    'The search’s fields as they were run, normalized: the reference without spaces or punctuation, upper-case; make, model and text lower-case without accents; English names whatever was sent.',
  properties: {
    reference: { type: 'string' },
    vehicle_make: { type: 'string' },
    vehicle_model: { type: 'string' },
    part_id: { type: 'integer' },
    text: { type: 'string' },
    condition: { type: 'string' },
    is_oem: { type: 'boolean' },
    is_aftermarket: { type: 'boolean' },
    country: { type: 'string' },
    price_min: { type: 'number' },
    price_max: { type: 'number' },
  },
};

const historySearchSchema = {
  type: 'object',
  required: ['query', 'query_summary', 'total', 'page', 'token_status'],
  description: 'A search or statistics request: what was asked, what it found.',
  properties: {
    query: searchQuerySchema,
    query_summary: {
      type: 'string',
      description: 'The query as one line: `reference=7701442136, condition=novo`.',
    },
    total: { type: 'integer', minimum: 0, description: 'Results found.' },
    page: { type: 'integer', minimum: 1 },
    token_status: tokenStatusSchema,
  },
};

const historyEntrySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'kind', 'credits', 'balance_after', 'created_at', 'search'],
  description: 'A movement of the balance, or a free search.',
  properties: {
    id: { type: 'string' },
    kind: LedgerKindSchema,
    credits: {
      type: 'integer',
      description: 'Change of the balance: negative for a charge, 0 for a free search.',
    },
    balance_after: {
      type: ['integer', 'null'],
      description: 'The balance after it; null for a free search (the balance did not change).',
    },
    created_at: { type: 'string', format: 'date-time' },
    search: {
      anyOf: [historySearchSchema, { type: 'null' }],
      description: 'The search, for `search` and `stats` entries; null for the others.',
    },
  },
};

export const historySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'total', 'page', 'per_page', 'total_pages', 'results'],
  description: 'A page of the account’s history, newest first.',
  properties: {
    success: { const: true },
    total: { type: 'integer', minimum: 0 },
    page: { type: 'integer', minimum: 1 },
    per_page: { type: 'integer', minimum: 1 },
    total_pages: { type: 'integer', minimum: 0 },
    results: { type: 'array', items: historyEntrySchema },
  },
};

/** The credits' shapes by the names generated clients give them. */
export const creditsSchemaNames = {
  BalanceResult: balanceSchema,
  LedgerKind: LedgerKindSchema,
  SearchQuery: searchQuerySchema,
  HistorySearch: historySearchSchema,
  HistoryEntry: historyEntrySchema,
  HistoryResult: historySchema,
  SearchTokenStatus: tokenStatusSchema,
};
