import type { DetailedPriceStats, PriceStats, PriceSummary, StockHit } from './engine.js';
import type { SearchOutcome, StatsOutcome } from './search-service.js';

/**
 * The answers of the search API as the client reads them: the spec's field names (Portuguese for
 * the items), in the shapes search-responses.ts declares.
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
