import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Condition } from '../../db/schema.js';
import {
  noResultsStats,
  type DetailedPriceStats,
  type PriceStats,
  type PriceSummary,
  type StockQuery,
} from '../engine.js';
import {
  averagePrice,
  centsOfNumeric,
  HISTOGRAM_BUCKETS,
  histogramBounds,
  quartilesFromRanks,
} from '../price-math.js';
import { matching, statementStart } from './conditions.js';
import { jsonRows, type Fragment } from './sql-fragments.js';

/**
 * The statistics' SQL: the matching rows grouped once (per condition, country and vendor), read
 * back as the figures of the whole result set; the stats endpoint adds quartiles and a histogram.
 */

/** One condition or country group of the statistics, as json_agg writes it. */
interface GroupRow {
  condition: Condition | null;
  country: string | null;
  n: number;
  lo: number;
  hi: number;
  /** the exact sum of the prices: numeric, as text (a JSON number would be a double) */
  total: string;
}

/** The grouped figures as a statement returns them (see FIGURES). */
export interface Figures {
  groups: GroupRow[];
  /** bigint, as text */
  sellers: string;
}

const toSummary = (rows: GroupRow[]): PriceSummary => {
  let count = 0;
  let sumCents = 0n;
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of rows) {
    count += Number(r.n);
    sumCents += centsOfNumeric(r.total);
    lo = Math.min(lo, Number(r.lo));
    hi = Math.max(hi, Number(r.hi));
  }
  // the exact sum divided in integers, rounded as numeric rounds: a sum of doubles could land just
  // below a half cent and round the wrong way
  return { count, priceMin: lo, priceMax: hi, priceAvg: averagePrice(sumCents, count) };
};

/**
 * Count, min, max and sum per condition, per country (only the stats endpoint shows them) and per
 * vendor, in one hashed pass over the matching rows; a statement names it `grouped`. Sellers are
 * counted as the vendor groups: no count(distinct ...) sort.
 */
export const groupsQuery = (rows: Fragment, { byCountry }: { byCountry: boolean }): Fragment => sql`
  select m.condition, ${byCountry ? sql`m.location_country_code` : sql`null::text`} as country,
         m.vendor_id as vendor, count(*) as n, min(m.price) as lo, max(m.price) as hi, sum(m.price) as total
  from ${rows} m
  group by grouping sets ((m.condition), ${byCountry ? sql`(m.location_country_code), ` : sql``}(m.vendor_id))`;

/**
 * The figures read from `grouped`: its condition and country rows, and the number of sellers. The
 * vendor groups are counted in the database: a broad search has thousands of them, which would
 * otherwise be written as JSON and parsed for one number.
 */
export const FIGURES = sql`
  ${jsonRows(sql`select g.condition, g.country, g.n, g.lo, g.hi, g.total::text as total from grouped g where g.vendor is null`)} as groups,
  (select count(*) from grouped g where g.vendor is not null) as sellers`;

/** One histogram bucket's count, as json_agg writes it. */
interface BucketRow {
  bucket: number;
  n: number;
}

/**
 * The buckets' lower bounds exactly as histogramBounds() draws them: lo + i × (hi − lo) / n rounded
 * to cents, in the same double-precision steps (Math.round: the nearest integer, halves up). The
 * buckets are counted on these rounded bounds, the ones the answer shows and the OpenSearch engine
 * counts on: on the exact ones, a price between the two (10.50 where the exact bound is 10.5005)
 * was counted in the bucket below the one whose bounds hold it.
 */
const lowerBounds = sql`
  select array_agg((floor(y) + case when y - floor(y) >= 0.5 then 1 else 0 end) / 100 order by i) as bounds
  from bounds b,
       generate_series(0, ${HISTOGRAM_BUCKETS - 1}) as i,
       lateral (select (b.lo::float8 + i * ((b.hi::float8 - b.lo::float8) / ${HISTOGRAM_BUCKETS})) * 100 as y) as at
  where b.hi > b.lo`;

/**
 * Counts per equal-width price bucket between the matching rows' lowest and highest price, as
 * histogramBounds() draws them (nothing when every price is the same: one bucket holds them all).
 * width_bucket numbers a price by the lower bounds at or below it: 1 to n, the maximum in the last.
 */
const bucketsQuery = sql`
  select width_bucket(m.price::float8, t.bounds) as bucket, count(*) as n
  from matched m, (${lowerBounds}) as t
  where t.bounds is not null
  group by 1`;

/**
 * The prices at the quartiles' ranks (quartileRanks: the floor and the ceiling of p × (n − 1) in
 * price order), as exact text, for quartilesFromRanks to interpolate in cents: percentile_cont
 * would interpolate in doubles, and round a half cent the wrong way.
 */
const rankedPrices = sql`
  (select json_agg(json_build_object('rank', r.rank, 'price', r.price::text))
     from (select price, row_number() over (order by price) - 1 as rank, count(*) over () - 1 as last
             from matched) r
    where r.rank in (floor(0.25 * r.last), ceil(0.25 * r.last), floor(0.5 * r.last), ceil(0.5 * r.last),
                     floor(0.75 * r.last), ceil(0.75 * r.last)))`;

/**
 * The detailed statistics in one statement that reads the matching rows once: grouped figures,
 * quartiles and the histogram all come from the materialized rows, rather than a pass over the
 * rows per figure.
 */
export async function detailedStats(db: Database, query: StockQuery): Promise<DetailedPriceStats> {
  const result = await sql<
    Figures & { ranked: { rank: number; price: string }[] | null; buckets: BucketRow[] }
  >`
    ${statementStart(query)}
    with matched as materialized ${matching(query, { ranked: false })},
         grouped as (${groupsQuery(sql`matched`, { byCountry: true })}),
         -- the condition groups partition the rows: their extremes are the whole set's
         bounds as (select min(lo) as lo, max(hi) as hi from grouped where condition is not null)
    select ${FIGURES},
           ${rankedPrices} as ranked,
           ${jsonRows(bucketsQuery)} as buckets`.execute(db);
  const { groups, ranked, buckets } = result.rows[0]!;
  const base = summarize(result.rows[0]!);
  if (base.priceMin === null || base.priceMax === null || ranked === null) {
    return { ...base, priceMedian: null, priceP25: null, priceP75: null, histogram: [], byCountry: {} };
  }
  const byCountry: Record<string, PriceSummary> = {};
  for (const r of groups) if (r.country !== null) byCountry[r.country] = toSummary([r]);
  const [p25, p50, p75] = quartilesFromRanks(
    base.totalResults,
    new Map(ranked.map((r) => [Number(r.rank), Number(r.price)])),
  );
  const bounds = histogramBounds(base.priceMin, base.priceMax);
  const counts = new Map(buckets.map((r) => [Number(r.bucket), Number(r.n)]));
  const histogram =
    bounds.length === 1
      ? [{ ...bounds[0]!, count: base.totalResults }]
      : bounds.map((b, i) => ({ ...b, count: counts.get(i + 1) ?? 0 }));
  return { ...base, priceMedian: p50!, priceP25: p25!, priceP75: p75!, histogram, byCountry };
}

/** The spec's statistics from the grouped figures: the condition groups partition the result set. */
export function summarize({ groups, sellers }: Figures): PriceStats {
  const byConditionRows = groups.filter((r) => r.condition !== null);
  if (byConditionRows.length === 0) {
    return noResultsStats();
  }
  const overall = toSummary(byConditionRows);
  const byCondition: PriceStats['byCondition'] = {};
  for (const r of byConditionRows) byCondition[r.condition!] = toSummary([r]);
  return {
    totalResults: overall.count,
    priceMin: overall.priceMin,
    priceMax: overall.priceMax,
    priceAvg: overall.priceAvg,
    totalSellers: Number(sellers),
    byCondition,
  };
}
