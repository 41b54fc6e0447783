import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Condition } from '../../src/db/schema.js';
import type { SearchEngine, StockQuery } from '../../src/search/engine.js';
import { histogramBounds } from '../../src/search/price-math.js';
import { stockQuery } from '../../src/search/stock-query.js';
import { fold } from '../../src/search/references.js';
import { textWords } from '../../src/search/text-query.js';
import {
  byPriceThenId,
  expectedDetailedStats,
  expectedStats,
  matches,
  type PlainQuery,
} from '../helpers/brute-force.js';
import { CONTRACT_ITEMS, type FixtureItem } from '../helpers/stock-fixture.js';

/**
 * One behavioural suite for every SearchEngine: the same queries over the same fixture
 * (CONTRACT_ITEMS in test/helpers/stock-fixture.ts, which each target loads) must give the same
 * answers. Expected values are computed from
 * the fixture by brute force (test/helpers/brute-force.ts), never copied from an engine.
 */
export interface ContractTarget {
  engine: SearchEngine;
  close(): Promise<void>;
}

export interface ContractOptions {
  /** OpenSearch's percentiles are estimates (t-digest): compare within this many euros */
  percentileTolerance?: number;
}

type Query = PlainQuery & { text?: string };

const toStockQuery = (q: Query): StockQuery => {
  const { make, model, ...rest } = q;
  return stockQuery({
    ...rest,
    ...(make !== undefined ? { vehicleMake: make } : {}),
    ...(model !== undefined ? { vehicleModel: model } : {}),
  });
};

/** Every word a whole word of title + description, the last one a prefix; accents folded. */
function textMatches(item: FixtureItem, text: string): boolean {
  const words = textWords(fold(text));
  const tokens = textWords(fold(`${item.title} ${item.description ?? ''}`));
  return words.every((w, i) =>
    i === words.length - 1 ? tokens.some((t) => t.startsWith(w)) : tokens.includes(w),
  );
}

const expected = (q: Query): FixtureItem[] =>
  CONTRACT_ITEMS.filter((i) => matches(i, q) && (q.text === undefined || textMatches(i, q.text))).sort(
    byPriceThenId,
  );
const ids = (items: { id: number }[]) => items.map((i) => i.id);

type PlainSummary = { count: number; price_min: number; price_max: number; price_avg: number };

/** The brute-force figures of each group (condition, country) in the engine's camelCase. */
const camelSummaries = (groups: unknown) =>
  Object.fromEntries(
    Object.entries(groups as Record<string, PlainSummary>).map(([k, x]) => [
      k,
      { count: x.count, priceMin: x.price_min, priceMax: x.price_max, priceAvg: x.price_avg },
    ]),
  );

/** The snake_case brute-force figures in the engine's camelCase. */
function camelStats(s: ReturnType<typeof expectedStats>) {
  return {
    totalResults: s.total_results,
    priceMin: s.price_min,
    priceMax: s.price_max,
    priceAvg: s.price_avg,
    totalSellers: s.total_sellers,
    byCondition: camelSummaries(s.by_condition),
  };
}

function expectedFacets(field: 'make' | 'model' | 'variant', filter: (i: FixtureItem) => boolean) {
  const groups = new Map<string, string[]>();
  for (const item of CONTRACT_ITEMS.filter(filter)) {
    const value = item[field];
    if (!value) continue;
    groups.set(fold(value), [...(groups.get(fold(value)) ?? []), value]);
  }
  return [...groups.values()]
    .map((spellings) => ({ value: spellings.sort()[0]!, count: spellings.length }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1));
}

export function engineContract(
  name: string,
  start: () => Promise<ContractTarget>,
  options: ContractOptions = {},
) {
  describe(`engine contract: ${name}`, () => {
    let target: ContractTarget;
    beforeAll(async () => {
      target = await start();
    });
    afterAll(() => target?.close());

    /** All pages' worth: the fixture has fewer than 100 items. */
    const all = (q: Query) => target.engine.search(toStockQuery(q), { page: 1, perPage: 100 });

    /** The engine's answer is the brute-force one, for a query the fixture has items for. */
    async function expectSame(q: Query) {
      const result = await all(q);
      const want = expected(q);
      // an empty answer would equal an empty expectation whatever the engine did
      expect(want.length, `fixture items for ${JSON.stringify(q)}`).toBeGreaterThan(0);
      if (q.text === undefined) expect(ids(result.items)).toEqual(ids(want));
      else expect(ids(result.items).sort((a, b) => a - b)).toEqual(ids(want).sort((a, b) => a - b));
      expect(result.total).toBe(want.length);
      return result;
    }

    describe('references', () => {
      it('own reference finds the group and the items listing it as associated', async () => {
        const result = await expectSame({ reference: '1K0 615 301 AA' });
        expect(result.total).toBeGreaterThan(2);
      });
      it('normalizes case and punctuation (spaces, -, ., /, _)', async () => {
        const a = await all({ reference: '1k0-615.301/a_a' });
        const b = await all({ reference: '1K0615301AA' });
        expect(ids(a.items)).toEqual(ids(b.items));
        expect(ids(a.items)).toEqual(ids(expected({ reference: '1K0 615 301 AA' })));
      });
      it('an associated reference finds its item and reports it as matched', async () => {
        const result = await expectSame({ reference: 'df4294s' });
        expect(result.items.map((i) => i.matchedReference)).toEqual(result.items.map(() => 'DF 4294 S'));
      });
      it('a cross-reference group reference finds every item of the group, naming the group reference', async () => {
        const result = await expectSame({ reference: '24 0125 0131 1' });
        expect(result.items.length).toBeGreaterThan(0);
        for (const item of result.items) expect(item.matchedReference).toBe('24.0125-0131.1');
      });
      it('the own reference is reported when it is what matched', async () => {
        const result = await all({ reference: '09-9145-11' });
        const own = result.items.find((i) => i.reference === '09.9145.11');
        expect(own?.matchedReference).toBe('09.9145.11');
        expect(ids(result.items)).toEqual(ids(expected({ reference: '09.9145.11' })));
      });
      it('a second group stays separate', () => expectSame({ reference: '34116792219' }));
      it('no reference query: matchedReference is null', async () => {
        const result = await expectSame({ make: 'BMW' });
        for (const item of result.items) expect(item.matchedReference, String(item.id)).toBeNull();
      });
      it('associated references are returned with the item', async () => {
        const result = await all({ reference: 'TRW DF4294' });
        expect(result.items[0]!.references.map((r) => r.reference).sort()).toEqual([
          '1K0 615 301 AA',
          'DF 4294 S',
        ]);
      });
    });

    describe('make and model', () => {
      it('make is case-insensitive', async () => {
        const a = await expectSame({ make: 'VOLKSWAGEN' });
        const b = await all({ make: 'volkswagen' });
        expect(ids(a.items)).toEqual(ids(b.items));
      });
      it('make is accent-insensitive', () => expectSame({ make: 'citroen' }));
      it('model matches whole words from the start (golf: not golfinho)', async () => {
        const result = await expectSame({ model: 'golf' });
        expect(result.items.some((i) => i.vehicleModel === 'Golfinho X')).toBe(false);
      });
      it('model with several words', () => expectSame({ model: 'golf vii' }));
      it('model accent-insensitive', () => expectSame({ model: 'serie 3' }));
      it('make and model: every model the words cover', () =>
        expectSame({ make: 'volkswagen', model: 'golf' }));
      it('make and model with filters', () =>
        expectSame({ make: 'VOLKSWAGEN', model: 'Passat', condition: 'novo', priceMin: 30, priceMax: 45.5 }));
      it('make and model: nothing for a model of another make', async () => {
        // each alone finds items; together, none
        expect(expected({ make: 'bmw' }).length).toBeGreaterThan(0);
        expect(expected({ model: 'golf' }).length).toBeGreaterThan(0);
        expect(expected({ make: 'bmw', model: 'golf' })).toEqual([]);
        const result = await all({ make: 'bmw', model: 'golf' });
        expect(result.items).toEqual([]);
        expect(result.total).toBe(0);
      });
      it('model: a partial word finds nothing', async () => {
        expect((await all({ model: 'gol' })).total).toBe(0);
      });
    });

    describe('filters', () => {
      it('part id', () => expectSame({ partId: 3 }));
      it.each(['novo', 'usado_bom', 'usado_aceitavel', 'recondicionado', 'para_pecas'] as Condition[])(
        'condition %s',
        async (condition) => {
          await expectSame({ condition });
        },
      );
      it('OEM', () => expectSame({ isOem: true }));
      it('not OEM', () => expectSame({ isOem: false }));
      it('aftermarket', () => expectSame({ isAftermarket: true }));
      it('country', () => expectSame({ country: 'DE' }));
      it('price range, bounds included', () => expectSame({ priceMin: 30, priceMax: 45.5 }));
      it('several filters together', () =>
        expectSame({ make: 'volkswagen', condition: 'novo', country: 'PT' }));
    });

    describe('text', () => {
      it('Portuguese, accent-folded', () => expectSame({ text: 'travao' }));
      it('Spanish', () => expectSame({ text: 'freno' }));
      it('German', () => expectSame({ text: 'Bremsscheibe' }));
      it('French', () => expectSame({ text: 'frein' }));
      it('prefix on the last word', async () => {
        const result = await expectSame({ text: 'filtr' });
        expect(result.total).toBe(1);
      });
      it('every word required', () => expectSame({ text: 'disco dianteiro' }));
      it('text with a filter', () => expectSame({ text: 'pastilhas', condition: 'novo' }));
    });

    describe('relevance', () => {
      /** The ids of every item a text search finds, in the engine's order. */
      const ranked = async (text: string) => {
        const result = await all({ text });
        // the order changes, never what is found
        expect(result.total).toBe(expected({ text }).length);
        return ids(result.items);
      };

      it('a title match outranks a description-only match, even when the description-only item is cheaper', async () => {
        // 201 has the words in its title, 202 (cheaper, shorter text) only in its description
        for (const text of ['bomba água', 'bomba', 'bomba agu'])
          expect(await ranked(text), text).toEqual([201, 202]);
      });
      it('a single-word text search is ranked, not price-ordered', async () => {
        // title and description, then title only, then description only: the reverse of price order
        expect(await ranked('radiador')).toEqual([211, 212, 213]);
      });
    });

    describe('ordering and pages', () => {
      it('without text: price ascending, id breaking ties', () => expectSame({ make: 'volkswagen' }));
      it('pages do not overlap and together are the whole result', async () => {
        const q = toStockQuery({ model: 'passat' });
        const pages = [];
        for (let page = 1; page <= 4; page++) pages.push(await target.engine.search(q, { page, perPage: 7 }));
        expect(pages.flatMap((p) => ids(p.items))).toEqual(ids(expected({ model: 'passat' })));
        expect(pages[3]!.items).toHaveLength(4);
      });
      it('pages of a make and model search across its models', async () => {
        const plain: Query = { make: 'Volkswagen', model: 'Golf' };
        const pages = [];
        for (let page = 1; page <= 4; page++) {
          pages.push(await target.engine.search(toStockQuery(plain), { page, perPage: 2 }));
        }
        expect(pages.map((p) => ids(p.items))).toEqual(
          [0, 2, 4, 6].map((start) => ids(expected(plain).slice(start, start + 2))),
        );
        expect(pages.map((p) => p.total)).toEqual([5, 5, 5, 5]);
      });
      it.each<[string, Query, number]>([
        ['by price', { model: 'passat' }, 2],
        ['make and model', { make: 'Volkswagen', model: 'Golf' }, 2],
        ['by relevance', { text: 'travao' }, 2],
        ['by reference', { reference: '1K0615301AA' }, 1],
      ])(
        '%s: each page read after the last item of the one before is the page at its offset',
        async (_, plain, perPage) => {
          const q = toStockQuery(plain);
          const first = await target.engine.search(q, { page: 1, perPage });
          expect(first.total).toBeGreaterThan(2 * perPage);
          let last = first.last;
          for (let page = 2; (page - 1) * perPage < first.total; page++) {
            const after = await target.engine.pageAfter(q, { after: last!, perPage });
            const atOffset = await target.engine.search(q, { page, perPage });
            expect(ids(after.items)).toEqual(ids(atOffset.items));
            expect(after.last).toEqual(atOffset.last);
            last = after.last;
          }
          // after the last item: nothing
          expect((await target.engine.pageAfter(q, { after: last!, perPage })).items).toEqual([]);
        },
      );
      it('a page past the end is empty with the same total and stats', async () => {
        const result = await target.engine.search(toStockQuery({ model: 'passat' }), {
          page: 9,
          perPage: 20,
        });
        expect(result.items).toEqual([]);
        expect(result.total).toBe(25);
        expect(result.stats.totalResults).toBe(25);
      });
    });

    describe('statistics', () => {
      it.each<[string, Query]>([
        ['whole stock', {}],
        ['a make', { make: 'volkswagen' }],
        ['a reference', { reference: '1K0 615 301 AA' }],
        ['nothing found', { reference: 'NOPE-0000' }],
      ])('search stats over the whole result set: %s', async (_label, q) => {
        const result = await target.engine.search(toStockQuery(q), { page: 1, perPage: 2 });
        expect(result.stats).toEqual(camelStats(expectedStats(expected(q))));
      });
      it('detailed stats: percentiles, countries, a histogram covering every item', async () => {
        const q: Query = { model: 'passat' };
        const stats = await target.engine.stats(toStockQuery(q));
        const want = expectedDetailedStats(expected(q));
        const tolerance = options.percentileTolerance ?? 0;
        expect(Math.abs(stats.priceMedian! - want.price_median!)).toBeLessThanOrEqual(tolerance);
        expect(Math.abs(stats.priceP25! - want.price_p25!)).toBeLessThanOrEqual(tolerance);
        expect(Math.abs(stats.priceP75! - want.price_p75!)).toBeLessThanOrEqual(tolerance);
        expect(Object.keys(stats.byCountry).sort()).toEqual(Object.keys(want.by_country).sort());
        expect(stats.byCountry.PT?.count).toBe(
          (want.by_country as Record<string, { count: number }>).PT!.count,
        );
        expect(stats.histogram).toHaveLength(20);
        expect(stats.histogram.reduce((s, b) => s + b.count, 0)).toBe(25);
        expect(stats.histogram[0]!.from).toBe(want.price_min);
        expect(stats.histogram[19]!.to).toBe(want.price_max);
      });
      it.each<[string, Query]>([
        ['bounds between two cents', { make: 'trabant' }],
        ['bounds on whole cents', { model: 'passat' }],
        ['the whole stock', {}],
      ])(
        'detailed stats: each histogram bucket counts the prices within its bounds (%s)',
        async (_label, q) => {
          const stats = await target.engine.stats(toStockQuery(q));
          const prices = expected(q).map((i) => i.price);
          const [lo, hi] = [Math.min(...prices), Math.max(...prices)];
          // the bounds price-math.ts draws, the same on every engine
          expect(stats.histogram.map(({ from, to }) => ({ from, to }))).toEqual(histogramBounds(lo, hi));
          // from included, to excluded, the last bucket holding the highest price
          const last = stats.histogram.length - 1;
          const within = stats.histogram.map(
            (b, n) => prices.filter((p) => p >= b.from && (p < b.to || (n === last && p === hi))).length,
          );
          expect(stats.histogram.map((b) => b.count)).toEqual(within);
        },
      );
      it.each<[string, Query]>([
        ['a reference and its cross-reference group', { reference: '1K0 615 301 AA' }],
        ['a make', { make: 'volkswagen' }],
      ])('detailed stats of %s: every figure the brute force gives', async (_label, q) => {
        const stats = await target.engine.stats(toStockQuery(q));
        const items = expected(q);
        const want = expectedDetailedStats(items);
        expect(items.length).toBeGreaterThan(2);
        const { priceMedian, priceP25, priceP75, histogram, byCountry, ...search } = stats;
        expect(search).toEqual(camelStats(want));
        expect(byCountry).toEqual(camelSummaries(want.by_country));
        expect([priceP25, priceMedian, priceP75]).toEqual([
          want.price_p25,
          want.price_median,
          want.price_p75,
        ]);
        const prices = items.map((i) => i.price);
        const last = histogram.length - 1;
        expect(histogram.map((b) => b.count)).toEqual(
          histogram.map(
            (b, n) =>
              prices.filter((p) => p >= b.from && (p < b.to || (n === last && p === Math.max(...prices))))
                .length,
          ),
        );
      });
      it('detailed stats when every price is the same: one bucket', async () => {
        const q: Query = { reference: '34116792219' };
        const stats = await target.engine.stats(toStockQuery(q));
        expect(stats.histogram).toEqual([{ from: 120, to: 120, count: 1 }]);
      });
      // MONEY_ITEMS: every average ends in exactly half a cent, which a sum of doubles puts just
      // below it (66.10 / 4 = 16.524999…): each must be the exact one, rounded half up as numeric does
      it('averages are exact cents, a half cent rounded up: search stats', async () => {
        const q: Query = { make: 'moskvitch' };
        const result = await target.engine.search(toStockQuery(q), { page: 1, perPage: 2 });
        expect(result.stats).toEqual(camelStats(expectedStats(expected(q))));
        expect(result.stats.priceAvg).toBe(16.53);
        expect(result.stats.byCondition).toMatchObject({
          novo: { priceAvg: 16.03 },
          usado_bom: { priceAvg: 17.03 },
        });
      });
      it('averages are exact cents, a half cent rounded up: detailed stats, by condition and country', async () => {
        const q: Query = { make: 'moskvitch' };
        const stats = await target.engine.stats(toStockQuery(q));
        const want = expectedDetailedStats(expected(q));
        expect(stats).toMatchObject(camelStats(want));
        expect(stats.byCountry).toEqual(camelSummaries(want.by_country));
        expect(stats.priceAvg).toBe(16.53);
        expect(stats.byCountry).toMatchObject({ PT: { priceAvg: 16.28 }, ES: { priceAvg: 16.78 } });
      });
      it('detailed stats without results', async () => {
        const stats = await target.engine.stats(toStockQuery({ country: 'IT' }));
        expect(stats).toMatchObject({ totalResults: 0, priceMedian: null, histogram: [], byCountry: {} });
      });
    });

    describe('stock-derived lists', () => {
      it('makes, most items first, one entry per folded spelling', async () => {
        expect(await target.engine.facets({ field: 'make' })).toEqual(expectedFacets('make', () => true));
      });
      it('models of a make', async () => {
        expect(await target.engine.facets({ field: 'model', make: 'VOLKSWAGEN' })).toEqual(
          expectedFacets('model', (i) => fold(i.make ?? '') === 'volkswagen'),
        );
      });
      it('variants of a model', async () => {
        expect(await target.engine.facets({ field: 'variant', model: 'passat b8' })).toEqual(
          expectedFacets('variant', (i) => fold(i.model ?? '') === 'passat b8'),
        );
      });
      it('empty for an unknown make', async () => {
        expect(await target.engine.facets({ field: 'model', make: 'Lada' })).toEqual([]);
      });
    });
  });
}
