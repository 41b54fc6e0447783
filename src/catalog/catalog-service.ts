import type { Database } from '../db/database.js';
import type { SearchEngine } from '../search/engine.js';
import { createCatalogCache } from './catalog-cache.js';
import type { ListKind } from './catalog-lists.js';
import {
  listCountries,
  listEngines,
  listEntries,
  listMakes,
  listModels,
  listStock,
  listVariants,
  type ListRequest,
} from './catalog-queries.js';
import { PartsSnapshot, type PartsRequest } from './parts-snapshot.js';

/**
 * The catalogs the API lists: the reference data (parts, vehicles, coded lists, countries), read
 * from Postgres, and the brands, models and variants in stock, read from the search engine.
 */
export function createCatalogService(db: Database, engine: SearchEngine) {
  const parts = new PartsSnapshot(db);
  return {
    /**
     * Pages of the static catalogs, reused for a minute. The parts keep their own in-process copy
     * and the stock-derived lists the engine's cache: neither goes through it.
     */
    pages: createCatalogCache(),
    parts: (r: PartsRequest) => parts.list(r),
    stock: (field: 'make' | 'model' | 'variant', r: ListRequest, scope?: { make?: string; model?: string }) =>
      listStock(engine, field, r, scope),
    makes: (r: ListRequest) => listMakes(db, r),
    models: (makeId: number, r: ListRequest) => listModels(db, makeId, r),
    variants: (modelId: number, r: ListRequest) => listVariants(db, modelId, r),
    engines: (variantId: number, r: ListRequest) => listEngines(db, variantId, r),
    entries: (kind: ListKind, r: ListRequest) => listEntries(db, kind, r),
    countries: (r: ListRequest) => listCountries(r),
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
