import { CONDITIONS } from '../db/schema.js';
import type { SearchOutcome, StatsOutcome } from './search-service.js';
import type { DetailedPriceStats, PriceStats, PriceSummary, StockHit } from './engine.js';

/**
 * Response schemas of the search API (the spec's Portuguese item fields): the OpenAPI document shows
 * them and the tests check answers against them; below them, the functions that write the answers.
 */

const nullableNumber = { type: ['number', 'null'] };

const summarySchema = {
  type: 'object',
  required: ['count', 'price_min', 'price_max', 'price_avg'],
  additionalProperties: false,
  properties: {
    count: { type: 'integer', minimum: 0 },
    price_min: { type: 'number' },
    price_max: { type: 'number' },
    price_avg: { type: 'number' },
  },
};

export const statsSchema = {
  type: 'object',
  required: ['price_min', 'price_max', 'price_avg', 'total_sellers', 'total_results', 'by_condition'],
  additionalProperties: false,
  properties: {
    price_min: { ...nullableNumber, description: 'EUR; null sem resultados' },
    price_max: nullableNumber,
    price_avg: nullableNumber,
    total_sellers: { type: 'integer', minimum: 0 },
    total_results: { type: 'integer', minimum: 0 },
    by_condition: {
      type: 'object',
      description: 'Por estado: número de resultados e preços',
      propertyNames: { enum: [...CONDITIONS] },
      additionalProperties: summarySchema,
    },
  },
};

export const detailedStatsSchema = {
  ...statsSchema,
  required: [...statsSchema.required, 'price_median', 'price_p25', 'price_p75', 'histogram', 'by_country'],
  properties: {
    ...statsSchema.properties,
    price_median: nullableNumber,
    price_p25: nullableNumber,
    price_p75: nullableNumber,
    histogram: {
      type: 'array',
      maxItems: 20,
      items: {
        type: 'object',
        required: ['from', 'to', 'count'],
        additionalProperties: false,
        properties: {
          from: { type: 'number' },
          to: { type: 'number' },
          count: { type: 'integer', minimum: 0 },
        },
      },
    },
    by_country: { type: 'object', additionalProperties: summarySchema },
  },
};

export const resultItemSchema = {
  type: 'object',
  additionalProperties: false,
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
    referencia_oem: { type: 'string', description: 'Referência da peça, como o vendedor a indica' },
    titulo: { type: 'string' },
    condicao: { enum: [...CONDITIONS] },
    preco: { type: 'number' },
    moeda: { type: 'string', const: 'EUR' },
    vendor_nome: { type: 'string' },
    location_country_code: { type: 'string', pattern: '^[A-Z]{2}$' },
    referencias: {
      type: 'array',
      description: 'Referências associadas (aftermarket, equivalentes)',
      items: {
        type: 'object',
        required: ['referencia', 'tipo', 'marca'],
        additionalProperties: false,
        properties: {
          referencia: { type: 'string' },
          tipo: { enum: ['oem', 'aftermarket', 'generic'] },
          marca: { type: ['string', 'null'] },
        },
      },
    },
    referencia_encontrada: {
      type: ['string', 'null'],
      description: 'A referência do artigo que correspondeu à pesquisa por referência',
    },
    descricao: { type: 'string' },
    parte_id: { type: ['integer', 'null'] },
    marca_veiculo: { type: ['string', 'null'] },
    modelo_veiculo: { type: ['string', 'null'] },
    variante_veiculo: { type: ['string', 'null'] },
    is_oem: { type: 'boolean' },
    is_aftermarket: { type: 'boolean' },
    vendor_id: { type: 'integer' },
    quantidade: { type: 'integer', minimum: 0 },
    atualizado_em: { type: 'string', format: 'date-time' },
  },
};

export const searchResponseSchema = {
  type: 'object',
  additionalProperties: false,
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
    credits_spent: { type: 'integer', enum: [0, 1] },
    credits_remaining: { type: 'integer', minimum: 0 },
    search_token: {
      type: 'string',
      description: 'Presente quando a pesquisa tem resultados; válido 10 minutos',
    },
    search_token_expires_at: { type: 'string', format: 'date-time' },
    total: { type: 'integer', minimum: 0 },
    page: { type: 'integer', minimum: 1 },
    per_page: { type: 'integer', minimum: 1 },
    total_pages: { type: 'integer', minimum: 0 },
    stats: statsSchema,
    results: { type: 'array', items: resultItemSchema },
  },
};

export const statsResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'credits_spent', 'credits_remaining', 'stats'],
  properties: {
    success: { const: true },
    credits_spent: { type: 'integer', enum: [0, 1] },
    credits_remaining: { type: 'integer', minimum: 0 },
    stats: detailedStatsSchema,
  },
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
