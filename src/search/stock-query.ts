import type { Condition } from '../db/schema.js';
import type { ReferenceQuery, StockQuery } from './engine.js';
import { fold, normalizeReference } from './references.js';
import { textWords } from './text-query.js';

/** A query's fields as a request gives them. */
export interface QueryFields {
  /** as typed, or already read (referenceQuery) */
  reference?: string | ReferenceQuery;
  vehicleMake?: string;
  vehicleModel?: string;
  partId?: number;
  text?: string;
  condition?: Condition;
  isOem?: boolean;
  isAftermarket?: boolean;
  country?: string;
  priceMin?: number;
  priceMax?: number;
}

/**
 * A query as the engines read it, parsed once: the reference normalized beside what was typed, and
 * the canonical fields (the same search written differently — case, accents, reference punctuation
 * — gets the same) with their key. Nothing after this normalizes again.
 */
export function stockQuery(fields: QueryFields): StockQuery {
  const { reference: given, ...rest } = fields;
  const reference = typeof given === 'string' ? referenceQuery(given) : given;
  const canonical = Object.fromEntries(
    Object.entries({
      reference: reference?.normalized,
      vehicle_make: fields.vehicleMake !== undefined ? fold(fields.vehicleMake) : undefined,
      vehicle_model: fields.vehicleModel !== undefined ? fold(fields.vehicleModel) : undefined,
      part_id: fields.partId,
      text: fields.text !== undefined ? textWords(fold(fields.text)).join(' ') : undefined,
      condition: fields.condition,
      is_oem: fields.isOem,
      is_aftermarket: fields.isAftermarket,
      country: fields.country,
      price_min: fields.priceMin,
      price_max: fields.priceMax,
    }).filter(([, v]) => v !== undefined),
  ) as Record<string, string | number | boolean>;
  const defined = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  return {
    ...defined,
    ...(reference !== undefined ? { reference } : {}),
    canonical,
    key: JSON.stringify(canonical),
  };
}

/** A reference as typed, with its normalized form. */
export const referenceQuery = (typed: string): ReferenceQuery => ({
  typed,
  normalized: normalizeReference(typed),
});
