import type { Client } from '@opensearch-project/opensearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stockIndexDefinition } from '../../indexer/index-admin.js';
import { indexLines } from '../../src/search/opensearch/documents.js';
import { OpenSearchEngine } from '../../src/search/opensearch/opensearch-engine.js';
import { readStockDocuments } from '../../src/search/stock-documents.js';
import { stockQuery } from '../../src/search/stock-query.js';
import { clusterClient, dropAlias, TEST_OPENSEARCH_URL, uniqueAlias } from '../helpers/opensearch.js';
import { MONEY_ITEMS, loadStockFixture } from '../helpers/stock-fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

/**
 * The statistics endpoint groups a result set's items once, by country and by condition within
 * each, and puts the conditions' figures and the countries' together from those groups. A document
 * without a country (the indexer never writes one, but an index is not checked for it) must still
 * count in its condition's figures and the whole set's, and in no country.
 */
describe.skipIf(!TEST_OPENSEARCH_URL)(
  'detailed statistics put together from groups by country and condition',
  () => {
    let database: TestDatabase;
    let client: Client;
    const alias = uniqueAlias('groups');

    beforeAll(async () => {
      database = await createTestDatabase();
      await loadStockFixture(database.handle.db, MONEY_ITEMS);
      client = clusterClient();
      await client.indices.create({ index: `${alias}_v1`, body: stockIndexDefinition() });
      const documents = await readStockDocuments(
        database.handle.db,
        MONEY_ITEMS.map((i) => i.id),
      );
      const lines = indexLines(`${alias}_v1`, documents);
      // one more item, as the first, at 18.05 and with no country
      const [action, source] = lines as [{ index: { _id: string } }, Record<string, unknown>];
      const { country_code: _, ...countryless } = source;
      lines.push(
        { index: { ...action.index, _id: '9999' } } as (typeof lines)[number],
        { ...countryless, id: 9999, price: 18.05, price_cents: 1805 } as (typeof lines)[number],
      );
      const written = await client.bulk({ body: lines, refresh: true });
      expect(written.body.errors).toBe(false);
      await client.indices.putAlias({ index: `${alias}_v1`, name: alias });
    });
    afterAll(async () => {
      if (client) {
        await dropAlias(client, alias);
        await client.close();
      }
      await database?.drop();
    });

    it('by condition and over the whole set with the countryless item; by country without it', async () => {
      const engine = new OpenSearchEngine(client, { index: alias, pricesReadAtOnce: 0 });
      const detailed = await engine.stats(stockQuery({ vehicleMake: 'moskvitch' }));
      // MONEY_ITEMS: 15.73 and 16.32 (novo; PT, ES), 16.82 and 17.23 (usado_bom; PT, ES); + 18.05 (novo)
      expect(detailed).toMatchObject({
        totalResults: 5,
        priceMin: 15.73,
        priceMax: 18.05,
        priceAvg: 16.83,
        byCondition: {
          novo: { count: 3, priceMin: 15.73, priceMax: 18.05, priceAvg: 16.7 },
          usado_bom: { count: 2, priceMin: 16.82, priceMax: 17.23, priceAvg: 17.03 },
        },
      });
      expect(detailed.byCountry).toEqual({
        PT: { count: 2, priceMin: 15.73, priceMax: 16.82, priceAvg: 16.28 },
        ES: { count: 2, priceMin: 16.32, priceMax: 17.23, priceAvg: 16.78 },
      });
    });
  },
);
