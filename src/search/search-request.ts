import { createHash } from 'node:crypto';
import countries from 'i18n-iso-countries';
import { invalid } from '../errors.js';
import type { StockQuery } from './engine.js';
import { DEFAULT_PER_PAGE, type SearchBody } from './search.schemas.js';
import { fold } from './references.js';
import { referenceQuery, stockQuery, type QueryFields } from './stock-query.js';
import { textWords } from './text-query.js';

const ALIASES = [
  ['reference', 'referencia'],
  ['vehicle_make', 'marca_veiculo'],
  ['vehicle_model', 'modelo_veiculo'],
  ['part_id', 'parte_id'],
  ['text', 'texto'],
] as const;

export interface ParsedSearch {
  query: StockQuery;
  page: number;
  perPage: number;
  searchToken?: string;
  /** binds a search token to these fields (page, per_page and the token itself excluded) */
  fieldsHash: string;
  /** canonical fields, as stored in the history */
  canonical: Record<string, string | number | boolean>;
  /** one line for the history: "reference=1K0615301AA, condition=novo" */
  summary: string;
}

/** Merges aliases, applies the rules a schema cannot express, and builds the engine query. */
export function parseSearchBody(body: SearchBody): ParsedSearch {
  const merged: SearchBody = { ...body };
  for (const [english, portuguese] of ALIASES) {
    const a = body[english];
    const b = body[portuguese];
    if (a !== undefined && b !== undefined && a !== b) {
      throw invalid(
        `Os campos ${english} e ${portuguese} são o mesmo campo e foram enviados com valores diferentes.`,
        'CONFLICTING_FIELDS',
      );
    }
    if (a === undefined && b !== undefined) (merged as Record<string, unknown>)[english] = b;
    delete (merged as Record<string, unknown>)[portuguese];
  }
  const query: QueryFields = {};
  if (merged.reference !== undefined) {
    query.reference = referenceQuery(merged.reference);
    if (query.reference.normalized === '') {
      throw invalid('O campo reference não contém letras nem algarismos.', 'INVALID_REFERENCE');
    }
  }
  if (merged.vehicle_make !== undefined)
    query.vehicleMake = requireWords(merged.vehicle_make, 'vehicle_make');
  if (merged.vehicle_model !== undefined)
    query.vehicleModel = requireWords(merged.vehicle_model, 'vehicle_model');
  if (merged.part_id !== undefined) query.partId = merged.part_id;
  if (merged.text !== undefined) {
    if (textWords(merged.text).length === 0) {
      throw invalid('O campo text não contém palavras pesquisáveis.', 'INVALID_TEXT');
    }
    query.text = merged.text;
  }
  if (
    query.reference === undefined &&
    query.vehicleMake === undefined &&
    query.partId === undefined &&
    query.text === undefined
  ) {
    throw invalid(
      'Indique pelo menos um dos campos de pesquisa: reference (referencia), vehicle_make (marca_veiculo), part_id (parte_id) ou text (texto).',
      'MISSING_SEARCH_FIELD',
    );
  }
  if (merged.condition !== undefined) query.condition = merged.condition;
  if (merged.is_oem !== undefined) query.isOem = merged.is_oem;
  if (merged.is_aftermarket !== undefined) query.isAftermarket = merged.is_aftermarket;
  if (merged.country !== undefined) {
    const code = merged.country.toUpperCase();
    if (!countries.isValid(code))
      throw invalid(`O país ${merged.country} não é um código ISO 3166-1 válido.`, 'INVALID_COUNTRY');
    query.country = code;
  }
  if (merged.price_min !== undefined) query.priceMin = inCents(merged.price_min, 'price_min');
  if (merged.price_max !== undefined) query.priceMax = inCents(merged.price_max, 'price_max');
  if (query.priceMin !== undefined && query.priceMax !== undefined && query.priceMin > query.priceMax) {
    throw invalid('O campo price_min não pode ser maior do que price_max.', 'INVALID_PRICE_RANGE');
  }
  const page = merged.page ?? 1;
  const perPage = merged.per_page ?? DEFAULT_PER_PAGE;
  const parsed = stockQuery(query);
  const canonical = parsed.canonical;
  return {
    query: parsed,
    page,
    perPage,
    ...(merged.search_token !== undefined ? { searchToken: merged.search_token } : {}),
    fieldsHash: createHash('sha256').update(parsed.key).digest('base64url').slice(0, 22),
    canonical,
    summary: Object.entries(canonical)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(', '),
  };
}

/**
 * Prices are in cents; a bound between two cents (10.005) would be rounded one way by PostgreSQL's
 * numeric and another by OpenSearch's scaled price, so the two engines could disagree on an item
 * priced at the bound. Refused rather than guessed.
 */
function inCents(value: number, field: string): number {
  if (Math.round(value * 100) / 100 !== value) {
    throw invalid(
      `O campo ${field} aceita no máximo duas casas decimais (cêntimos de euro): ${value}.`,
      'INVALID_PRICE',
    );
  }
  return value;
}

function requireWords(value: string, field: string): string {
  if (fold(value) === '') throw invalid(`O campo ${field} não pode estar vazio.`, 'VALIDATION_ERROR');
  return value;
}
