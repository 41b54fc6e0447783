import type { Condition } from '../../src/db/schema.js';
import { FIXTURE_GROUPS, FIXTURE_VENDORS, type FixtureItem } from './stock-fixture.js';

/** Reference semantics written the plain way, to check the engines against. */
const norm = (r: string) => r.replace(/[\s\-./_]+/g, '').toUpperCase();
const foldText = (t: string) =>
  t
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

export interface PlainQuery {
  reference?: string;
  make?: string;
  model?: string;
  partId?: number;
  condition?: Condition;
  isOem?: boolean;
  isAftermarket?: boolean;
  country?: string;
  priceMin?: number;
  priceMax?: number;
}

export function matches(item: FixtureItem, q: PlainQuery): boolean {
  if (q.reference !== undefined) {
    const r = norm(q.reference);
    const own = norm(item.reference) === r;
    const associated = (item.refs ?? []).some((x) => norm(x.reference) === r);
    const group = FIXTURE_GROUPS.find((g) => g.id === item.group);
    const xref = !!group && group.refs.some((x) => norm(x.reference) === r);
    if (!own && !associated && !xref) return false;
  }
  if (q.make !== undefined && foldText(item.make ?? '') !== foldText(q.make)) return false;
  if (q.model !== undefined) {
    const m = foldText(item.model ?? '');
    const want = foldText(q.model);
    if (m !== want && !m.startsWith(want + ' ')) return false;
  }
  if (q.partId !== undefined && item.partId !== q.partId) return false;
  if (q.condition !== undefined && item.condition !== q.condition) return false;
  if (q.isOem !== undefined && (item.isOem ?? false) !== q.isOem) return false;
  if (q.isAftermarket !== undefined && (item.isAftermarket ?? false) !== q.isAftermarket) return false;
  if (q.country !== undefined && item.country !== q.country) return false;
  if (q.priceMin !== undefined && item.price < q.priceMin) return false;
  if (q.priceMax !== undefined && item.price > q.priceMax) return false;
  return true;
}

export const byPriceThenId = (a: FixtureItem, b: FixtureItem) => a.price - b.price || a.id - b.id;

/**
 * The average of prices as PostgreSQL's numeric computes it: the exact sum, divided, rounded to
 * cents half away from zero. In whole cents (integers, exact here), never a sum of doubles.
 */
function averagePrice(prices: number[]): number {
  const cents = prices.reduce((s, p) => s + Math.round(p * 100), 0);
  const n = prices.length;
  // prices are never negative: half away from zero is half up
  return Math.floor((2 * cents + n) / (2 * n)) / 100;
}

function summary(items: FixtureItem[]) {
  const prices = items.map((i) => i.price);
  return {
    count: items.length,
    price_min: Math.min(...prices),
    price_max: Math.max(...prices),
    price_avg: averagePrice(prices),
  };
}

function groupSummaries(items: FixtureItem[], key: (i: FixtureItem) => string) {
  const groups = new Map<string, FixtureItem[]>();
  for (const i of items) groups.set(key(i), [...(groups.get(key(i)) ?? []), i]);
  return Object.fromEntries([...groups].map(([k, v]) => [k, summary(v)]));
}

/** The spec's stats fields computed directly from the fixture. */
export function expectedStats(items: FixtureItem[]) {
  if (items.length === 0) {
    return {
      price_min: null,
      price_max: null,
      price_avg: null,
      total_sellers: 0,
      total_results: 0,
      by_condition: {},
    };
  }
  const s = summary(items);
  return {
    price_min: s.price_min,
    price_max: s.price_max,
    price_avg: s.price_avg,
    total_sellers: new Set(items.map((i) => i.vendorId)).size,
    total_results: items.length,
    by_condition: groupSummaries(items, (i) => i.condition),
  };
}

/**
 * Continuous percentile, placed as percentile_cont places it, to the cent exactly: the prices
 * either side in whole cents, the interpolation counted in hundredths of a cent (an integer: the
 * fraction is a quarter), then rounded half up as numeric rounds a price.
 */
export function percentile(sorted: number[], p: number): number {
  const position = (sorted.length - 1) * p;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const [lo, hi] = [sorted[lower]!, sorted[upper]!].map((price) => Math.round(price * 100));
  const hundredths = lo! * 100 + (hi! - lo!) * Math.round((position - lower) * 100);
  return Math.floor((hundredths + 50) / 100) / 100;
}

export function expectedDetailedStats(items: FixtureItem[]) {
  const base = expectedStats(items);
  const sorted = items.map((i) => i.price).sort((a, b) => a - b);
  return {
    ...base,
    price_median: items.length ? percentile(sorted, 0.5) : null,
    price_p25: items.length ? percentile(sorted, 0.25) : null,
    price_p75: items.length ? percentile(sorted, 0.75) : null,
    by_country: items.length ? groupSummaries(items, (i) => i.country) : {},
  };
}

export const vendorName = (id: number) => FIXTURE_VENDORS.find((v) => v.id === id)!.name;

/** The words of a text, as the service cuts them: letters and digits, accents folded, lower-cased. */
const words = (text: string): string[] => foldText(text).match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * Free text written the plain way: every word of the query a whole word of the item's title or
 * description, the last one a prefix (the caller may still be typing it); case and accents folded.
 */
export function textMatches(item: FixtureItem, text: string): boolean {
  const wanted = words(text);
  const tokens = words(`${item.title} ${item.description ?? ''}`);
  return (
    wanted.length > 0 &&
    wanted.every((w, i) =>
      i === wanted.length - 1 ? tokens.some((t) => t.startsWith(w)) : tokens.includes(w),
    )
  );
}
