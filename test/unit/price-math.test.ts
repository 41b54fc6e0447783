import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import {
  averagePrice,
  bucketPrices,
  centsOfNumeric,
  HISTOGRAM_BUCKETS,
  histogramBounds,
  quartileRanks,
  quartilesFromRanks,
  roundPrice,
  toCents,
} from '../../src/search/price-math.js';
import { Random } from '../../src/seeded-random.js';

/** Whole cents (the nearest number to a two-decimal one): what a price or a bound may be. */
const onACent = (value: number) => Number(value.toFixed(2)) === value;

/** `n` prices in cents between `lo` and `hi` euros, drawn from `seed`, unsorted. */
function prices(seed: number, n: number, lo: number, hi: number): number[] {
  const random = new Random(seed);
  return Array.from({ length: n }, () => roundPrice(lo + random.next() * (hi - lo)));
}

describe('roundPrice', () => {
  it.each([
    [0.35000000000000003, 0.35],
    [0.1 + 0.2, 0.3],
    [19.999, 20],
    [12.344, 12.34],
    [12.346, 12.35],
    [120, 120],
    [0, 0],
  ])('%s → %s', (value, rounded) => {
    expect(roundPrice(value)).toBe(rounded);
  });
});

describe('cents', () => {
  it.each([
    ['66.10', 6610n],
    ['66.1', 6610n],
    ['12', 1200n],
    ['0.07', 7n],
    ['-0.50', -50n],
    ['99999999999999999999.99', 9999999999999999999999n],
  ])('centsOfNumeric(%s) = %s', (text, cents) => {
    expect(centsOfNumeric(text)).toBe(cents);
  });
  it('refuses what is not an amount of cents', () => {
    for (const text of ['1.005', '', 'abc', '1e3']) expect(() => centsOfNumeric(text)).toThrow();
  });
  it('toCents is exact for every two-decimal price up to numeric(12, 2)', () => {
    expect([0.35, 0.07, 16.32, 1234.56, 9_999_999_999.99].map(toCents)).toEqual([
      35, 7, 1632, 123456, 999_999_999_999,
    ]);
  });
});

describe('averagePrice', () => {
  it('rounds an exact half cent away from zero, where a quotient of doubles rounds it down', () => {
    // 15.73 + 16.32 + 16.82 + 17.23 = 66.10; / 4 = 16.525, which is 16.524999… as a double
    expect(roundPrice((15.73 + 16.32 + 16.82 + 17.23) / 4)).toBe(16.52);
    expect(averagePrice(6610, 4)).toBe(16.53);
    expect(averagePrice(4511 + 4512, 2)).toBe(45.12);
    expect(averagePrice(-6610n, 4)).toBe(-16.53);
    expect(averagePrice(0, 3)).toBe(0);
    expect(averagePrice(100, 3)).toBe(0.33);
    expect(averagePrice(200, 3)).toBe(0.67);
  });

  describe("against PostgreSQL's round(avg(numeric), 2)", () => {
    let database: DatabaseHandle;
    beforeAll(async () => {
      database = await openDatabase({ url: null, dataDir: null });
    });
    afterAll(() => database?.close());

    it('agrees on every set: sums near half cents, large sums', async () => {
      const sets = [
        [15.73, 16.32, 16.82, 17.23],
        [45.11, 45.12],
        [0.01, 0.02],
        [9_999_999_999.99, 9_999_999_999.98, 0.01],
        ...[1, 2, 3, 4, 5, 6].map((seed) => prices(seed, 2 + seed * 7, 0.01, 500)),
      ];
      for (const list of sets) {
        const { rows } = await sql<{ avg: string }>`
          select round(avg(p), 2)::text as avg from unnest(${list.map(String)}::numeric[]) as p`.execute(
          database.db,
        );
        const sum = list.reduce((s, p) => s + toCents(p), 0);
        expect(averagePrice(sum, list.length), JSON.stringify(list)).toBe(Number(rows[0]!.avg));
      }
    });
  });
});

describe('histogramBounds', () => {
  it('one bucket from the price to itself when every price is the same', () => {
    expect(histogramBounds(120, 120)).toEqual([{ from: 120, to: 120 }]);
  });

  it('twenty equal buckets when the span divides evenly', () => {
    const bounds = histogramBounds(10, 30);
    expect(bounds).toEqual(Array.from({ length: 20 }, (_, i) => ({ from: 10 + i, to: 11 + i })));
  });

  it.each([
    [0.01, 9_999_999_999.99],
    [3.17, 1_234.56],
    [10, 20.01],
    [99.99, 100.37],
  ])('from %s to %s: twenty contiguous buckets on whole cents, from the lowest to the highest', (lo, hi) => {
    const bounds = histogramBounds(lo, hi);
    expect(bounds).toHaveLength(HISTOGRAM_BUCKETS);
    expect(bounds[0]!.from).toBe(lo);
    expect(bounds.at(-1)!.to).toBe(hi);
    const width = (hi - lo) / HISTOGRAM_BUCKETS;
    for (const [i, b] of bounds.entries()) {
      expect(onACent(b.from) && onACent(b.to), `bucket ${i} ${JSON.stringify(b)}`).toBe(true);
      expect(b.to).toBeGreaterThanOrEqual(b.from);
      if (i > 0) expect(b.from, `bucket ${i} starts where ${i - 1} ends`).toBe(bounds[i - 1]!.to);
      // within half a cent of the exact bound (and the float error at that size)
      expect(Math.abs(b.from - (lo + i * width))).toBeLessThanOrEqual(0.005 + 4 * Number.EPSILON * hi);
    }
  });
});

describe('quartileRanks', () => {
  it.each([
    [1, [0]],
    [2, [0, 1]],
    [3, [0, 1, 2]],
    [4, [0, 1, 2, 3]],
    [5, [1, 2, 3]],
    [9, [2, 4, 6]],
    [10, [2, 3, 4, 5, 6, 7]],
    [10_000, [2499, 2500, 4999, 5000, 7499, 7500]],
  ])('of %i prices: %j', (total, ranks) => {
    expect(quartileRanks(total)).toEqual(ranks);
  });
});

describe('quartilesFromRanks', () => {
  const fromSorted = (sorted: number[]) =>
    quartilesFromRanks(
      sorted.length,
      new Map(quartileRanks(sorted.length).map((rank) => [rank, sorted[rank]!])),
    );

  it('interpolates between the prices either side of p × (n − 1), rounded to cents', () => {
    expect(fromSorted([10, 20, 30, 40])).toEqual([17.5, 25, 32.5]);
    expect(fromSorted([1, 2, 3, 4, 5])).toEqual([2, 3, 4]);
    expect(fromSorted([7.77])).toEqual([7.77, 7.77, 7.77]);
    // 0.01 + 0.75 × 0.01 = 0.0175: shown as 0.02
    expect(fromSorted([0.01, 0.02])).toEqual([0.01, 0.02, 0.02]);
  });

  it('rounds an exact half cent up, as numeric does, where doubles would round it down', () => {
    // halfway is 16.025 exactly; 16.02 + (16.03 − 16.02) × 0.5 in doubles is 16.024999…
    expect(fromSorted([16.02, 16.03])).toEqual([16.02, 16.03, 16.03]);
    expect(fromSorted([0.01, 0.02, 0.04, 0.05])).toEqual([0.02, 0.03, 0.04]);
  });

  it('needs no price but those at quartileRanks()', () => {
    const sorted = prices(7, 101, 1, 500).sort((a, b) => a - b);
    const asked = new Map(quartileRanks(101).map((rank) => [rank, sorted[rank]!]));
    expect(asked.size).toBe(3);
    expect(quartilesFromRanks(101, asked)).toEqual(fromSorted(sorted));
  });

  // Both engines compute the quartiles from the prices at their ranks; here PostgreSQL's numeric
  // arithmetic, which interpolates and rounds exactly, is the independent reference, on every size.
  describe("against PostgreSQL's numeric interpolation", () => {
    let database: DatabaseHandle;
    beforeAll(async () => {
      database = await openDatabase({ url: null, dataDir: null });
    });
    afterAll(() => database?.close());

    const percentileCont = async (list: number[]) => {
      const { rows } = await sql<{ quartiles: string[] }>`
        with v as (select p, row_number() over (order by p) - 1 as rank, count(*) over () - 1 as last
                     from unnest(${list.map(String)}::numeric[]) as p),
             at as (select q, q * (select max(last) from v) as position from unnest(array[0.25, 0.5, 0.75]) q)
        select array(
          select round(lo.p + (hi.p - lo.p) * (at.position - floor(at.position)), 2)::text
            from at join v lo on lo.rank = floor(at.position) join v hi on hi.rank = ceil(at.position)
           order by at.q) as quartiles`.execute(database.db);
      return rows[0]!.quartiles.map(Number);
    };

    it.each([1, 2, 3, 4, 5, 6, 7, 10, 11, 38, 99, 250, 1001])('%i prices', async (n) => {
      for (const seed of [1, 2, 3]) {
        const list = prices(seed * 1000 + n, n, 0.01, 2_000);
        const sorted = [...list].sort((a, b) => a - b);
        expect(fromSorted(sorted), `seed ${seed}: ${JSON.stringify(sorted)}`).toEqual(
          await percentileCont(list),
        );
      }
    });
  });
});

describe('bucketPrices', () => {
  /** The bucket a price belongs in by the bounds' own rule: from ≤ price < to, the last one with hi. */
  const byRule = (bounds: { from: number; to: number }[], price: number) =>
    bounds.findIndex(
      (b, i) => b.from <= price && (price < b.to || (i === bounds.length - 1 && price <= b.to)),
    );

  it('puts every price in the bucket whose bounds hold it: a price on a bound in the upper one', () => {
    const list = [10, 10.5, 11, 11.01, 15.49, 15.5, 19.99, 20];
    const histogram = bucketPrices(list, 10, 20);
    // [10, 10.5) [10.5, 11) [11, 11.5) … [15, 15.5) [15.5, 16) … [19.5, 20]
    expect(histogram.map((b) => b.count)).toEqual([
      1, 1, 2, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 2,
    ]);
    expect(histogram.map(({ from, to }) => ({ from, to }))).toEqual(histogramBounds(10, 20));
  });

  it.each([
    [11, 10, 20.01],
    [12, 0.01, 0.37],
    [13, 99.99, 100.37],
    [14, 1, 1_000_000],
  ])('seed %i, prices from %s to %s: each counted once, where the bounds say', (seed, lo, hi) => {
    const list = [lo, hi, ...prices(seed, 300, lo, hi)];
    const low = Math.min(...list);
    const high = Math.max(...list);
    const histogram = bucketPrices(list, low, high);
    expect(histogram.reduce((sum, b) => sum + b.count, 0)).toBe(list.length);
    const expected = histogram.map(() => 0);
    for (const price of list) expected[byRule(histogram, price)]! += 1;
    expect(histogram.map((b) => b.count)).toEqual(expected);
  });

  it('one bucket holding them all when every price is the same', () => {
    expect(bucketPrices([5, 5, 5], 5, 5)).toEqual([{ from: 5, to: 5, count: 3 }]);
  });
});
