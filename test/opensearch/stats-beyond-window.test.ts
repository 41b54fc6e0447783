import { describe, expect, it } from 'vitest';
import { OpenSearchEngine } from '../../src/search/opensearch/opensearch-engine.js';
import { PostgresEngine } from '../../src/search/postgres/postgres-engine.js';
import { MAX_RESULT_WINDOW } from '../../src/search/result-window.js';
import { stockQuery } from '../../src/search/stock-query.js';
import { insertGeneratedItems, loadStockFixture } from '../helpers/stock-fixture.js';
import { useIndexedDatabase } from '../helpers/indexed-database.js';
import { TEST_OPENSEARCH_URL } from '../helpers/opensearch.js';

/**
 * The statistics of a result set larger than the result window: the OpenSearch engine counts its
 * sellers and estimates its quartiles in a second round trip (detailed-stats.ts), where a smaller
 * set has them from its hits. Every figure but the quartiles must be the Postgres engine's, exactly.
 */
describe.skipIf(!TEST_OPENSEARCH_URL)('statistics of a result set beyond the result window', () => {
  const ITEMS = MAX_RESULT_WINDOW + 1_500;
  const indexed = useIndexedDatabase(
    'beyond',
    async (db) => {
      await loadStockFixture(db);
      // make "Geradora", four sellers, prices 1 to 500 (generated in the fixture's helper)
      await insertGeneratedItems(db, 100_000, ITEMS);
    },
    120_000,
  );

  it('sellers, prices, histogram and breakdowns exact; quartiles estimated within 0.1 %', async () => {
    const query = stockQuery({ vehicleMake: 'Geradora' });
    const opensearch = await new OpenSearchEngine(indexed.client, { index: indexed.alias }).stats(query);
    const postgres = await new PostgresEngine(indexed.database.handle.db).stats(query);
    expect(opensearch.totalResults).toBe(ITEMS);
    const { priceMedian, priceP25, priceP75, ...figures } = opensearch;
    const { priceMedian: median, priceP25: p25, priceP75: p75, ...exact } = postgres;
    expect(figures).toEqual(exact);
    expect(figures.totalSellers).toBe(4);
    // A price at the quartile's rank (the estimate takes the nearest rank, percentile_cont
    // interpolates between the two prices either side: whole euros here) within 0.1 % (3
    // significant digits), and a cent for the rounding.
    for (const [estimate, exactValue] of [
      [priceMedian, median],
      [priceP25, p25],
      [priceP75, p75],
    ] as [number, number][]) {
      expect(estimate).toBeGreaterThanOrEqual(Math.floor(exactValue) * 0.999 - 0.01);
      expect(estimate).toBeLessThanOrEqual(Math.ceil(exactValue) * 1.001 + 0.01);
    }
  });

  it('asked again of an unchanged index, they are answered from the shard request cache', async () => {
    const engine = new OpenSearchEngine(indexed.client, { index: indexed.alias });
    const query = stockQuery({ vehicleMake: 'Geradora' });
    const cache = async () => {
      const stats = await indexed.client.indices.stats({ index: indexed.alias, metric: 'request_cache' });
      const { hit_count, miss_count } = stats.body._all.primaries.request_cache!;
      return { hits: hit_count!, misses: miss_count! };
    };
    const first = await engine.stats(query);
    const before = await cache();
    // a moment later, so that what was left of each request's time budget is not the same
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await engine.stats(query)).toEqual(first);
    const after = await cache();
    // the aggregations (the figures, the sellers, the estimates, the histogram): every one a hit
    expect(after.misses).toBe(before.misses);
    expect(after.hits - before.hits).toBeGreaterThanOrEqual(4);
  });
});
