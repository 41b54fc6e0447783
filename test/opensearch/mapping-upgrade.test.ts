import type { Client } from '@opensearch-project/opensearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBatch } from '../../indexer/cluster.js';
import {
  addMissingFields,
  aliasTargets,
  liveMappingVersion,
  mappingVersion,
  stockIndexDefinition,
} from '../../indexer/index-admin.js';
import { indexLines } from '../../src/search/opensearch/documents.js';
import { OpenSearchEngine } from '../../src/search/opensearch/opensearch-engine.js';
import { readStockDocuments } from '../../src/search/stock-documents.js';
import {
  CAN_RUN_INDEXER,
  clusterClient,
  dropAlias,
  dropIndexerQueue,
  startIndexerProcess,
  TEST_OPENSEARCH_URL,
  uniqueAlias,
  waitUntil,
  type IndexerProcess,
} from '../helpers/opensearch.js';
import { CONTRACT_ITEMS, loadStockFixture } from '../helpers/stock-fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { stockQuery } from '../../src/search/stock-query.js';

interface Mappings {
  _meta: { mapping_version: number };
  properties: Record<string, { fields?: unknown }>;
}

/**
 * The live index of mapping 2 (no `title.folded`) when a later mapping is deployed: the API's text
 * queries still answer from it, and the indexer rebuilds it at start, after which titles rank.
 */
describe.skipIf(!CAN_RUN_INDEXER)('an index of mapping 2 under the current mapping', () => {
  let database: TestDatabase;
  let client: Client;
  let indexer: IndexerProcess | null = null;
  const alias = uniqueAlias('upgrade');
  const old = `${alias}_v1`;

  beforeAll(async () => {
    expect(mappingVersion()).toBeGreaterThan(2);
    database = await createTestDatabase();
    await loadStockFixture(database.handle.db, CONTRACT_ITEMS);
    client = clusterClient();
    // mappings/stock.json as it was at version 2: the title only copied into text_all
    const definition = stockIndexDefinition();
    const mappings = definition.mappings as Mappings;
    mappings._meta.mapping_version = 2;
    delete mappings.properties.title!.fields;
    await client.indices.create({ index: old, body: definition });
    const documents = await readStockDocuments(
      database.handle.db,
      CONTRACT_ITEMS.map((i) => i.id),
    );
    expect((await writeBatch(client, old, { documents, deletions: [] })).acknowledged.length).toBe(
      CONTRACT_ITEMS.length,
    );
    await client.indices.refresh({ index: old });
    await client.indices.putAlias({ index: old, name: alias });
  });
  afterAll(async () => {
    await indexer?.stop();
    if (client) {
      await dropAlias(client, alias);
      await client.close();
    }
    await dropIndexerQueue(alias);
    await database?.drop();
  });

  const bomba = async (engine: OpenSearchEngine) =>
    (await engine.search(stockQuery({ text: 'bomba' }), { page: 1, perPage: 10 })).items.map((i) => i.id);

  it('answers text searches from the old index, then rebuilds it and ranks the title match first', async () => {
    const engine = new OpenSearchEngine(client, { index: alias });
    expect(await liveMappingVersion(client, alias)).toBe(2);
    // title.folded is not in that index: no title score, the shorter (and cheaper) text first
    expect(await bomba(engine)).toEqual([202, 201]);

    indexer = await startIndexerProcess({ databaseUrl: database.url!, alias });
    await waitUntil(
      async () => (await liveMappingVersion(client, alias)) === mappingVersion(),
      'the index of mapping 2 to be rebuilt',
      60_000,
    );
    expect(await aliasTargets(client, alias)).toEqual([`${alias}_v2`]);
    expect(indexer.output()).toContain('index of an older mapping: rebuilding it');
    expect(await bomba(engine)).toEqual([201, 202]);
  });
});

/**
 * The live index of mapping 4 (no `price_cents`, documents without it) when a later mapping is
 * deployed, as it answers until the indexer's rebuild takes the alias: the statistics find no
 * cents, are asked again over `price`, and stay exact to the cent.
 */
describe.skipIf(!TEST_OPENSEARCH_URL)(
  'an index of mapping 4 (no price_cents) under the current mapping',
  () => {
    let database: TestDatabase;
    let client: Client;
    const alias = uniqueAlias('cents');
    const old = `${alias}_v1`;

    beforeAll(async () => {
      database = await createTestDatabase();
      await loadStockFixture(database.handle.db, CONTRACT_ITEMS);
      client = clusterClient();
      const definition = stockIndexDefinition();
      const mappings = definition.mappings as Mappings;
      mappings._meta.mapping_version = 4;
      delete mappings.properties.price_cents;
      // an index of mapping 4 was not sorted (mapping 8 sorts by price_cents)
      const settings = definition.settings as Record<string, unknown>;
      delete settings['sort.field'];
      delete settings['sort.order'];
      await client.indices.create({ index: old, body: definition });
      const documents = await readStockDocuments(
        database.handle.db,
        CONTRACT_ITEMS.map((i) => i.id),
      );
      // the documents as an indexer of mapping 4 wrote them
      const body = indexLines(old, documents).map((line) => {
        if (!('price_cents' in line)) return line;
        const { price_cents: _, ...source } = line;
        return source;
      });
      const written = await client.bulk({ body, refresh: true });
      expect(written.body.errors).toBe(false);
      await client.indices.putAlias({ index: old, name: alias });
    });
    afterAll(async () => {
      if (client) {
        await dropAlias(client, alias);
        await client.close();
      }
      await database?.drop();
    });

    it('search and detailed statistics are exact cents, read from price', async () => {
      const engine = new OpenSearchEngine(client, { index: alias });
      expect(await liveMappingVersion(client, alias)).toBe(4);
      const query = stockQuery({ vehicleMake: 'moskvitch' });
      // MONEY_ITEMS: 15.73 and 16.32 (novo; PT, ES), 16.82 and 17.23 (usado_bom; PT, ES)
      const figures = {
        totalResults: 4,
        priceMin: 15.73,
        priceMax: 17.23,
        priceAvg: 16.53,
        byCondition: {
          novo: { count: 2, priceMin: 15.73, priceMax: 16.32, priceAvg: 16.03 },
          usado_bom: { count: 2, priceMin: 16.82, priceMax: 17.23, priceAvg: 17.03 },
        },
      };
      const { stats } = await engine.search(query, { page: 1, perPage: 2 });
      expect(stats).toMatchObject(figures);
      // a text search's first page, asked apart from its statistics, is asked again over price too
      const text = await engine.search(stockQuery({ text: 'amortecedor de mala' }), { page: 1, perPage: 2 });
      expect(text.stats).toMatchObject(figures);
      expect(text.items.map((i) => i.price)).toEqual([15.73, 16.32]);
      expect(text.last!.values.slice(1)).toEqual([1632, expect.any(Number)]);
      const detailed = await engine.stats(query);
      expect(detailed).toMatchObject(figures);
      expect(detailed.byCountry).toEqual({
        PT: { count: 2, priceMin: 15.73, priceMax: 16.82, priceAvg: 16.28 },
        ES: { count: 2, priceMin: 16.32, priceMax: 17.23, priceAvg: 16.78 },
      });
    });

    it('pages in price order, the first with its statistics and the next with the kept ones, and reads on from a page in whole cents', async () => {
      const engine = new OpenSearchEngine(client, { index: alias, statsCacheSeconds: 60 });
      const query = stockQuery({ vehicleMake: 'moskvitch' });
      const prices = (items: { price: number }[]) => items.map((i) => i.price);
      const first = await engine.search(query, { page: 1, perPage: 2 });
      expect(prices(first.items)).toEqual([15.73, 16.32]);
      const second = await engine.search(query, { page: 2, perPage: 2 });
      expect(second.stats).toEqual(first.stats);
      expect(prices(second.items)).toEqual([16.82, 17.23]);
      expect(first.last!.values).toEqual([1632, expect.any(Number)]);
      expect(second.last!.values).toEqual([1723, expect.any(Number)]);
    });

    it('takes documents carrying price_cents once the indexer has added the field, and is still rebuilt', async () => {
      const [document] = await readStockDocuments(database.handle.db, [CONTRACT_ITEMS[0]!.id]);
      // a change the indexer writes while the old index is live (a version above the one it holds)
      const change = { ...document!, version: document!.version + 1 };
      const refused = await writeBatch(client, old, { documents: [change], deletions: [] });
      expect(refused.rejected.map((r) => r.reason)).toEqual([
        expect.stringContaining('strict_dynamic_mapping_exception'),
      ]);

      // what the indexer does at start when the live index is of an older mapping
      expect(await addMissingFields(client, alias)).toEqual(['price_cents']);
      const taken = await writeBatch(client, old, { documents: [change], deletions: [] });
      expect(taken).toMatchObject({ rejected: [], failed: [] });
      expect(taken.acknowledged).toHaveLength(1);
      // the mapping version is the old one's: the rebuild still comes
      expect(await liveMappingVersion(client, alias)).toBe(4);
      expect(await addMissingFields(client, alias)).toEqual([]);
    });
  },
);
