import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, creditsOf, type TestAccount } from '../helpers/accounts-fixture.js';
import { expectedDetailedStats, expectedStats, matches, type PlainQuery } from '../helpers/brute-force.js';
import { ENGINES, startEngineApp, type EngineApp } from '../helpers/engine-app.js';
import { loadStockFixture, type FixtureItem } from '../helpers/stock-fixture.js';

/**
 * Prices whose cents a binary float cannot hold exactly (0.35 is 0.34999…): the index stores them as
 * scaled_float (cents in a long) and computes minima, maxima, sums and averages on the long, then
 * multiplies by 0.01, which gave 0.35000000000000003. Every money figure of every answer must be
 * a number of cents.
 */
const PRICES = [0.35, 0.07, 19.99, 1234.56, 0.35, 0.07, 0.35, 19.99, 0.29, 0.57, 1.15, 2.01, 0.13, 100.1];
const CONDITIONS = ['novo', 'usado_bom', 'recondicionado'] as const;

const ITEMS: FixtureItem[] = PRICES.map((price, i) => ({
  id: 500 + i,
  vendorId: (i % 4) + 1,
  reference: `CENT-${i}`,
  title: i % 2 ? 'Pastilhas de travão' : 'Disco de travão',
  condition: CONDITIONS[i % 3]!,
  price,
  make: 'Dacia',
  model: i % 2 ? 'Sandero' : 'Logan',
  country: ['PT', 'ES', 'DE', 'FR'][i % 4]!,
}));

/** Every number in a JSON value, with its path. */
function numbers(value: unknown, path = ''): [string, number][] {
  if (typeof value === 'number') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => numbers(v, `${path}[${i}]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => numbers(v, path ? `${path}.${k}` : k));
  return [];
}

/** The numbers that are not a whole number of cents. */
const notCents = (value: unknown): [string, number][] =>
  numbers(value).filter(([, n]) => Math.round(n * 100) / 100 !== n);

describe.each(ENGINES)('money figures on the %s engine', (engine) => {
  let app: EngineApp;
  let account: TestAccount;

  beforeAll(async () => {
    app = await startEngineApp(engine, (db) => loadStockFixture(db, ITEMS));
    account = await createTestAccount(app.services.db, app.clock, { credits: 1_000 });
  });
  afterAll(() => app?.close());

  const post = (path: string, body: Record<string, unknown>) =>
    app.api
      .withApiKey(account.apiKey)
      .post<Record<string, unknown> & { stats?: unknown; results?: unknown[] }>(path, body);

  const searches: [Record<string, unknown>, PlainQuery][] = [
    [{ vehicle_make: 'dacia' }, { make: 'Dacia' }],
    [
      { vehicle_make: 'dacia', condition: 'novo' },
      { make: 'Dacia', condition: 'novo' },
    ],
    [
      { vehicle_make: 'dacia', country: 'PT' },
      { make: 'Dacia', country: 'PT' },
    ],
    [
      { vehicle_make: 'dacia', vehicle_model: 'logan' },
      { make: 'Dacia', model: 'Logan' },
    ],
    [
      { vehicle_make: 'dacia', price_min: 0.07, price_max: 0.35 },
      { make: 'Dacia', priceMin: 0.07, priceMax: 0.35 },
    ],
  ];

  it('search statistics (min, max, average, by condition) are exact cents', async () => {
    for (const [body, plain] of searches) {
      const response = await post('/data/search', { ...body, per_page: 100 });
      expect(response.status, JSON.stringify(body)).toBe(200);
      const expected = ITEMS.filter((i) => matches(i, plain));
      expect(response.body.stats, JSON.stringify(body)).toEqual(expectedStats(expected));
      expect(notCents(response.body.stats), JSON.stringify(body)).toEqual([]);
      expect(notCents((response.body.results as { preco: number }[]).map((r) => r.preco))).toEqual([]);
    }
  });

  it('the statistics endpoint (by country, quartiles, histogram bounds) is exact cents', async () => {
    for (const [body, plain] of searches) {
      const response = await post('/data/search/stats', body);
      expect(response.status, JSON.stringify(body)).toBe(200);
      const stats = response.body.stats as Record<string, unknown> & { histogram: { count: number }[] };
      expect(notCents(stats), JSON.stringify(body)).toEqual([]);
      const expected = ITEMS.filter((i) => matches(i, plain));
      const { histogram, ...figures } = stats;
      expect(figures, JSON.stringify(body)).toEqual(expectedDetailedStats(expected));
      expect(histogram.reduce((n, b) => n + b.count, 0)).toBe(expected.length);
    }
  });

  it('price bounds take cents exactly: a bound at 0.35 includes the items at 0.35', async () => {
    const response = await post('/data/search', { vehicle_make: 'dacia', price_min: 0.35, price_max: 0.35 });
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(PRICES.filter((p) => p === 0.35).length);
  });

  it('a price bound with more than two decimals is refused: 400 INVALID_PRICE, nothing charged', async () => {
    const before = await creditsOf(app.services.db, account.accountId);
    for (const bounds of [
      { price_min: 10.005 },
      { price_max: 0.001 },
      { price_min: 0.35, price_max: 19.999 },
    ]) {
      for (const path of ['/data/search', '/data/search/stats']) {
        const response = await post(path, { vehicle_make: 'dacia', ...bounds });
        expect(response.status, `${path} ${JSON.stringify(bounds)}`).toBe(400);
        expect(response.body.code).toBe('INVALID_PRICE');
      }
    }
    expect(await creditsOf(app.services.db, account.accountId)).toBe(before);
  });
});
