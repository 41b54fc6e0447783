import type { Condition } from '../db/schema.js';
import type { PriceStats, PriceSummary, SortValues } from './engine.js';

/**
 * What a search token carries so that the next page of its search costs what a page costs: where
 * that page starts (the last item's sort values) and the figures the first page computed (the
 * total and the statistics), so the engine reads the page after the item, without an offset, a
 * recount or aggregations. The token's signature covers it: a client cannot change the figures.
 */
export interface Continuation {
  /** the page it leads to, at `perPage` items a page (another page or size is asked as any other) */
  page: number;
  perPage: number;
  after: SortValues;
  /** the search's statistics, `totalResults` its total */
  stats: PriceStats;
}

/** A summary as four numbers: count, min, max, average. */
type PackedSummary = [number, number, number, number];
/** The statistics as arrays: a token travels in every request of the paging. */
type PackedStats = [
  total: number,
  min: number | null,
  max: number | null,
  avg: number | null,
  sellers: number,
  byCondition: Record<string, PackedSummary>,
];
interface Packed {
  p: number;
  n: number;
  e: SortValues['engine'];
  a: number[];
  s: PackedStats;
}

const packSummary = (s: PriceSummary): PackedSummary => [s.count, s.priceMin, s.priceMax, s.priceAvg];
const unpackSummary = ([count, priceMin, priceMax, priceAvg]: PackedSummary): PriceSummary => ({
  count,
  priceMin,
  priceMax,
  priceAvg,
});

/** The continuation as one URL-safe token segment. */
export function packContinuation(c: Continuation): string {
  const s = c.stats;
  const packed: Packed = {
    p: c.page,
    n: c.perPage,
    e: c.after.engine,
    a: c.after.values,
    s: [
      s.totalResults,
      s.priceMin,
      s.priceMax,
      s.priceAvg,
      s.totalSellers,
      Object.fromEntries(Object.entries(s.byCondition).map(([k, v]) => [k, packSummary(v)])),
    ],
  };
  return Buffer.from(JSON.stringify(packed)).toString('base64url');
}

/** The continuation of a segment this service signed (so well formed). */
export function unpackContinuation(segment: string): Continuation {
  const packed = JSON.parse(Buffer.from(segment, 'base64url').toString()) as Packed;
  const [totalResults, priceMin, priceMax, priceAvg, totalSellers, byCondition] = packed.s;
  return {
    page: packed.p,
    perPage: packed.n,
    after: { engine: packed.e, values: packed.a },
    stats: {
      totalResults,
      priceMin,
      priceMax,
      priceAvg,
      totalSellers,
      byCondition: Object.fromEntries(
        Object.entries(byCondition).map(([k, v]) => [k as Condition, unpackSummary(v)]),
      ),
    },
  };
}
