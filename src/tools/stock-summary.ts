import type { Database } from '../db/database.js';
import type { SearchEngine } from '../search/engine.js';
import { stockQuery } from '../../src/search/stock-query.js';

/** What stock holds for one reference, as the search matches it (own, associated, cross-reference). */
export interface StockSummary {
  items: number;
  /** null when nothing is stocked */
  lowestPrice: number | null;
  /** the catalog part most of the first items are (null when none says) */
  partId: number | null;
}

/** Items read to name the part: enough to outvote a mislabelled item. */
const SAMPLE = 20;

/**
 * One engine query per reference (the same port as POST /data/search, so the answer is the same
 * on both engines): the total, the lowest price over all matches, and the part most of the first
 * page are.
 */
export async function stockSummary(engine: SearchEngine, normalized: string): Promise<StockSummary> {
  const result = await engine.search(stockQuery({ reference: normalized }), { page: 1, perPage: SAMPLE });
  const votes = new Map<number, number>();
  for (const item of result.items) {
    if (item.partId !== null) votes.set(item.partId, (votes.get(item.partId) ?? 0) + 1);
  }
  const partId = [...votes.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? null;
  return { items: result.total, lowestPrice: result.stats.priceMin, partId };
}

/** Portuguese names of catalog parts, by id (an id the catalog does not hold is left out). */
export async function partNames(db: Database, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('catalog_parts').select(['id', 'names']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.names.pt]));
}
