import type { StockQuery } from './engine.js';
import { fold, normalizeReference } from './references.js';
import { textWords } from './text-query.js';

/**
 * A query's canonical fields: the same search written differently (case, accents, reference
 * punctuation) gets the same fields. They bind a search token, name the search in the history, and
 * key what the engines keep of a query.
 */
export function canonicalFields(q: StockQuery): Record<string, string | number | boolean> {
  const fields: Record<string, string | number | boolean | undefined> = {
    reference: q.reference !== undefined ? normalizeReference(q.reference) : undefined,
    vehicle_make: q.vehicleMake !== undefined ? fold(q.vehicleMake) : undefined,
    vehicle_model: q.vehicleModel !== undefined ? fold(q.vehicleModel) : undefined,
    part_id: q.partId,
    text: q.text !== undefined ? textWords(fold(q.text)).join(' ') : undefined,
    condition: q.condition,
    is_oem: q.isOem,
    is_aftermarket: q.isAftermarket,
    country: q.country,
    price_min: q.priceMin,
    price_max: q.priceMax,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Record<
    string,
    string | number | boolean
  >;
}
