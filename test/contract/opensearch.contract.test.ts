import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import type { Client } from '@opensearch-project/opensearch';
import {
  OpenSearchEngine,
  type OpenSearchEngineOptions,
} from '../../src/search/opensearch/opensearch-engine.js';
import { createClusterClient } from '../../indexer/cluster.js';
import { aliasTargets } from '../../indexer/index-admin.js';
import { rebuildIndex } from '../../indexer/rebuild.js';
import { CONTRACT_ITEMS, loadStockFixture } from '../helpers/stock-fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { engineContract } from './engine-contract.js';

/**
 * The contract against a live cluster: OPENSEARCH_URL=http://localhost:9200 npm run test:opensearch.
 * A throwaway alias (and index) per run, loaded with the fixture through the reindex code.
 */
const OPENSEARCH_URL = process.env.OPENSEARCH_URL;

describe.skipIf(!OPENSEARCH_URL)('OpenSearch (OPENSEARCH_URL)', () => {
  /** The fixture's database and index, built once for both runs below. */
  let database: TestDatabase;
  let client: Client;
  const alias = `contract_${randomBytes(4).toString('hex')}`;
  beforeAll(async () => {
    database = await createTestDatabase();
    await loadStockFixture(database.handle.db, CONTRACT_ITEMS);
    client = createClusterClient(OPENSEARCH_URL!);
    await rebuildIndex(database.handle.db, client, alias);
  });
  afterAll(async () => {
    if (client) {
      const indices = await aliasTargets(client, alias);
      if (indices.length) await client.indices.delete({ index: indices });
      await client.close();
    }
    await database?.drop();
  });
  const target = (options: Omit<OpenSearchEngineOptions, 'index'>) => () =>
    Promise.resolve({
      engine: new OpenSearchEngine(client, { index: alias, ...options }),
      close: () => Promise.resolve(),
    });

  engineContract('opensearch', target({}));
  // Every result set of more than two items takes the statistics' second round trip (the
  // histogram as range aggregations, the quartiles from the prices at their ranks): the same
  // answers are required of it.
  engineContract('opensearch, statistics in two round trips', target({ pricesReadAtOnce: 2 }));
});
