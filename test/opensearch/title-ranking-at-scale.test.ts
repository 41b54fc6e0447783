import type { Client } from '@opensearch-project/opensearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBatch } from '../../indexer/cluster.js';
import { stockIndexDefinition } from '../../indexer/index-admin.js';
import { OpenSearchEngine } from '../../src/search/opensearch/opensearch-engine.js';
import { readStockDocuments } from '../../src/search/stock-documents.js';
import { clusterClient, dropAlias, TEST_OPENSEARCH_URL, uniqueAlias } from '../helpers/opensearch.js';
import { RANKING_ITEMS, loadStockFixture } from '../helpers/stock-fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { stockQuery } from '../../src/search/stock-query.js';

/** Items that say nothing of the searched words: what makes those words rare, as on a real index. */
const OTHER_ITEMS = 20_000;

/**
 * The contract suite's fixture is small, so every word in it is common and a flat bonus for a
 * title match would be enough. On a real index a rare word scores high wherever it is (BM25 grows
 * with rarity): the title's part of the score must grow with it, or a short description holding
 * the word outranks the title that names it.
 */
describe.skipIf(!TEST_OPENSEARCH_URL)('title matches on an index where the searched words are rare', () => {
  let database: TestDatabase;
  let client: Client;
  const alias = uniqueAlias('rare');

  beforeAll(async () => {
    database = await createTestDatabase();
    await loadStockFixture(database.handle.db, RANKING_ITEMS);
    client = clusterClient();
    const index = `${alias}_v1`;
    await client.indices.create({ index, body: stockIndexDefinition() });
    const ranking = await readStockDocuments(
      database.handle.db,
      RANKING_ITEMS.map((i) => i.id),
    );
    const template = ranking[0]!;
    const others = Array.from({ length: OTHER_ITEMS }, (_, n) => ({
      ...template,
      id: 1_000_000 + n,
      version: 1,
      // short texts, as most listings are: the fixture's longer title pays BM25's length penalty
      title: `Filtro ${n}`,
      description: '',
    }));
    for (let start = 0; start < others.length; start += 5_000) {
      const documents = others.slice(start, start + 5_000);
      expect((await writeBatch(client, index, { documents, deletions: [] })).acknowledged.length).toBe(
        documents.length,
      );
    }
    await writeBatch(client, index, { documents: ranking, deletions: [] });
    await client.indices.refresh({ index });
    await client.indices.putAlias({ index, name: alias });
  }, 120_000);
  afterAll(async () => {
    if (client) {
      await dropAlias(client, alias);
      await client.close();
    }
    await database?.drop();
  });

  it('still ranks the item with the words in its title first', async () => {
    const engine = new OpenSearchEngine(client, { index: alias });
    for (const text of ['bomba', 'bomba água', 'bomba agu']) {
      const result = await engine.search(stockQuery({ text }), { page: 1, perPage: 10 });
      expect(result.total, text).toBe(2);
      expect(
        result.items.map((i) => i.id),
        text,
      ).toEqual([201, 202]);
    }
  });
});
