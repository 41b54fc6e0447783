import { CONDITIONS } from '../db/schema.js';
import { ConditionSchema, DocumentedSearchBodySchema } from './search.schemas.js';
import type { SearchOutcome, StatsOutcome } from './search-service.js';
import type { DetailedPriceStats, PriceStats, PriceSummary, StockHit } from './engine.js';

/**
 * Response schemas of the search API (the spec's Portuguese item fields): the OpenAPI document shows
 * them and the tests check answers against them; below them, the functions that write the answers.
 */

const nullableNumber = (description: string) => ({ type: ['number', 'null'], description });

/** What the search token sent counted as: the X-Search-Token-Status header and the history's entries. */
export const TOKEN_STATUSES = ['valid', 'expired', 'invalid', 'mismatch', 'none'];
export const tokenStatusSchema = {
  type: 'string',
  enum: TOKEN_STATUSES,
  description:
    'What the `search_token` sent counted as: `valid` (the page is free), `expired`, `invalid` or `mismatch` (counted as none: charged as a first search, a new token issued), `none` (no token sent). Closed list.',
  'x-enum-descriptions': [
    'The token holds for this account and these search fields: the page costs nothing.',
    'Older than 10 minutes: charged as a first search, a new token issued.',
    'Not a token this service signed: charged as a first search, a new token issued.',
    'Another account’s, or issued for other search fields: charged as a first search, a new token issued.',
    'No token sent.',
  ],
};

const conditionSchema = ConditionSchema;

/** Count and prices of a part of the results (one condition, one country). */
const summarySchema = {
  type: 'object',
  required: ['count', 'price_min', 'price_max', 'price_avg'],
  additionalProperties: false,
  description: 'How many results of one condition or country, and their prices in EUR.',
  properties: {
    count: { type: 'integer', minimum: 0 },
    price_min: { type: 'number' },
    price_max: { type: 'number' },
    price_avg: { type: 'number' },
  },
};

/** by_condition: one entry per condition that has results (the spec leaves its shape open). */
const conditionStatsSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'Results by condition: a property for each condition that has results, absent for the others.',
  properties: Object.fromEntries(CONDITIONS.map((c) => [c, summarySchema])),
};

export const statsSchema = {
  type: 'object',
  required: ['price_min', 'price_max', 'price_avg', 'total_sellers', 'total_results', 'by_condition'],
  additionalProperties: false,
  description: 'Price statistics over the whole result set (every page), in EUR.',
  properties: {
    price_min: nullableNumber('Lowest price; null without results.'),
    price_max: nullableNumber('Highest price; null without results.'),
    price_avg: nullableNumber('Average price; null without results.'),
    total_sellers: { type: 'integer', minimum: 0, description: 'Sellers with results.' },
    total_results: { type: 'integer', minimum: 0 },
    by_condition: conditionStatsSchema,
  },
};

const histogramBucketSchema = {
  type: 'object',
  required: ['from', 'to', 'count'],
  additionalProperties: false,
  description: 'A price bucket: results priced from `from` to `to` (EUR).',
  properties: {
    from: { type: 'number' },
    to: { type: 'number' },
    count: { type: 'integer', minimum: 0 },
  },
};

export const detailedStatsSchema = {
  ...statsSchema,
  description: 'The search’s price statistics, with the median, quartiles, a histogram and the countries.',
  required: [...statsSchema.required, 'price_median', 'price_p25', 'price_p75', 'histogram', 'by_country'],
  properties: {
    ...statsSchema.properties,
    price_median: nullableNumber('Median price; null without results.'),
    price_p25: nullableNumber('First quartile; null without results.'),
    price_p75: nullableNumber('Third quartile; null without results.'),
    histogram: {
      type: 'array',
      maxItems: 20,
      description:
        'Up to 20 equal-width buckets from the lowest to the highest price; empty without results.',
      items: histogramBucketSchema,
    },
    by_country: {
      type: 'object',
      description: 'Results by the seller’s country (ISO 3166-1 alpha-2).',
      propertyNames: { pattern: '^[A-Z]{2}$' },
      additionalProperties: summarySchema,
    },
  },
};

const itemReferenceSchema = {
  type: 'object',
  required: ['referencia', 'tipo', 'marca'],
  additionalProperties: false,
  description: 'A reference associated with an item.',
  properties: {
    referencia: { type: 'string' },
    tipo: {
      type: 'string',
      enum: ['oem', 'aftermarket', 'generic'],
      description: 'What kind of reference. Closed list.',
    },
    marca: { type: ['string', 'null'], description: 'The brand it is a reference of, when known.' },
  },
};

export const resultItemSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'A stock item: the specification’s eight fields, then the service’s.',
  required: [
    'id',
    'referencia_oem',
    'titulo',
    'condicao',
    'preco',
    'moeda',
    'vendor_nome',
    'location_country_code',
    'referencias',
    'referencia_encontrada',
    'descricao',
    'parte_id',
    'marca_veiculo',
    'modelo_veiculo',
    'variante_veiculo',
    'is_oem',
    'is_aftermarket',
    'vendor_id',
    'quantidade',
    'atualizado_em',
  ],
  properties: {
    id: { type: 'integer' },
    referencia_oem: { type: 'string', description: 'The part’s reference, as the seller gives it.' },
    titulo: { type: 'string', description: 'The listing’s title.' },
    condicao: conditionSchema,
    preco: { type: 'number', description: 'Price in `moeda`.' },
    moeda: { type: 'string', const: 'EUR', description: 'Currency code: EUR.' },
    vendor_nome: { type: 'string', description: 'The seller’s name.' },
    location_country_code: {
      type: 'string',
      pattern: '^[A-Z]{2}$',
      description: 'The seller’s country, ISO 3166-1 alpha-2.',
    },
    referencias: {
      type: 'array',
      description: 'Associated references (aftermarket, equivalents).',
      items: itemReferenceSchema,
    },
    referencia_encontrada: {
      type: ['string', 'null'],
      description: 'In a search by reference, the item’s reference that matched; null otherwise.',
    },
    descricao: { type: 'string' },
    parte_id: { type: ['integer', 'null'], description: 'The catalog part it is, when known.' },
    marca_veiculo: { type: ['string', 'null'] },
    modelo_veiculo: { type: ['string', 'null'] },
    variante_veiculo: { type: ['string', 'null'] },
    is_oem: { type: 'boolean' },
    is_aftermarket: { type: 'boolean' },
    vendor_id: { type: 'integer' },
    quantidade: { type: 'integer', minimum: 0, description: 'Units in stock.' },
    atualizado_em: { type: 'string', format: 'date-time', description: 'Last change of the item.' },
  },
};

const creditsSpentSchema = {
  type: 'integer',
  minimum: 0,
  maximum: 1,
  description:
    '1 when this answer was charged (results, and no valid token); 0 for a page fetched with a valid token, or without results.',
};

export const searchResponseSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'A page of a search, with the statistics of the whole result set.',
  required: [
    'success',
    'credits_spent',
    'credits_remaining',
    'total',
    'page',
    'per_page',
    'total_pages',
    'stats',
    'results',
  ],
  properties: {
    success: { const: true },
    credits_spent: creditsSpentSchema,
    credits_remaining: { type: 'integer', minimum: 0, description: 'The balance after this answer.' },
    search_token: {
      type: 'string',
      description:
        'Present when the search has results: send it back with the same search fields and another `page` to get that page free until `search_token_expires_at` (10 minutes after the first page). On a page fetched with a valid token, a token with the same expiry that also marks where the next page starts: send the newest one and the next page is read from there, without counting or aggregating again (any of them stays valid; another page or `per_page` is read as a first page is, still free).',
    },
    search_token_expires_at: {
      type: 'string',
      format: 'date-time',
      description: 'When `search_token` stops being valid; present with it.',
    },
    total: { type: 'integer', minimum: 0, description: 'Results in all.' },
    page: { type: 'integer', minimum: 1 },
    per_page: { type: 'integer', minimum: 1 },
    total_pages: { type: 'integer', minimum: 0 },
    stats: statsSchema,
    results: { type: 'array', items: resultItemSchema, description: 'The page’s items.' },
  },
};

export const statsResponseSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'The price statistics of a search.',
  required: ['success', 'credits_spent', 'credits_remaining', 'stats'],
  properties: {
    success: { const: true },
    credits_spent: {
      ...creditsSpentSchema,
      description: '1 when there are results (charged), 0 without results.',
    },
    credits_remaining: { type: 'integer', minimum: 0, description: 'The balance after this answer.' },
    stats: detailedStatsSchema,
  },
};

/** The search API's shapes by the names generated clients give them. */
export const searchSchemaNames = {
  SearchRequest: DocumentedSearchBodySchema,
  Condition: conditionSchema,
  SearchTokenStatus: tokenStatusSchema,
  PriceSummary: summarySchema,
  ConditionStats: conditionStatsSchema,
  PriceStats: statsSchema,
  PriceHistogramBucket: histogramBucketSchema,
  DetailedPriceStats: detailedStatsSchema,
  ItemReference: itemReferenceSchema,
  StockItem: resultItemSchema,
  SearchResult: searchResponseSchema,
  SearchStatsResult: statsResponseSchema,
};

/**
 * The answers of the search API as the client reads them: the spec's field names (Portuguese for
 * the items), in the shapes declared above.
 */

const serializeSummary = (s: PriceSummary) => ({
  count: s.count,
  price_min: s.priceMin,
  price_max: s.priceMax,
  price_avg: s.priceAvg,
});

const mapValues = <T, U>(record: Partial<Record<string, T>>, fn: (value: T) => U): Record<string, U> =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fn(v as T)]));

export function serializeStats(stats: PriceStats) {
  return {
    price_min: stats.priceMin,
    price_max: stats.priceMax,
    price_avg: stats.priceAvg,
    total_sellers: stats.totalSellers,
    total_results: stats.totalResults,
    by_condition: mapValues(stats.byCondition, serializeSummary),
  };
}

export function serializeDetailedStats(stats: DetailedPriceStats) {
  return {
    ...serializeStats(stats),
    price_median: stats.priceMedian,
    price_p25: stats.priceP25,
    price_p75: stats.priceP75,
    histogram: stats.histogram,
    by_country: mapValues(stats.byCountry, serializeSummary),
  };
}

export function serializeHit(hit: StockHit) {
  return {
    id: hit.id,
    referencia_oem: hit.reference,
    titulo: hit.title,
    condicao: hit.condition,
    preco: hit.price,
    moeda: hit.currency,
    vendor_nome: hit.vendorName,
    location_country_code: hit.countryCode,
    referencias: hit.references.map((r) => ({ referencia: r.reference, tipo: r.kind, marca: r.brand })),
    referencia_encontrada: hit.matchedReference,
    descricao: hit.description,
    parte_id: hit.partId,
    marca_veiculo: hit.vehicleMake,
    modelo_veiculo: hit.vehicleModel,
    variante_veiculo: hit.vehicleVariant,
    is_oem: hit.isOem,
    is_aftermarket: hit.isAftermarket,
    vendor_id: hit.vendorId,
    quantidade: hit.quantity,
    atualizado_em: hit.updatedAt,
  };
}

/** A search's answer; also what an Idempotency-Key keeps of it (the same search_token included). */
export function presentSearch(outcome: SearchOutcome) {
  const { result } = outcome;
  return {
    success: true as const,
    credits_spent: outcome.creditsSpent,
    credits_remaining: outcome.creditsRemaining,
    ...(outcome.token
      ? {
          search_token: outcome.token.token,
          search_token_expires_at: outcome.token.expiresAt.toISOString(),
        }
      : {}),
    total: result.total,
    page: outcome.page,
    per_page: outcome.perPage,
    total_pages: Math.ceil(result.total / outcome.perPage),
    stats: serializeStats(result.stats),
    results: result.items.map(serializeHit),
  };
}

export function presentStats(outcome: StatsOutcome) {
  return {
    success: true as const,
    credits_spent: outcome.creditsSpent,
    credits_remaining: outcome.creditsRemaining,
    stats: serializeDetailedStats(outcome.stats),
  };
}
