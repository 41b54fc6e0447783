import { randomBytes } from 'node:crypto';
import { describe } from 'vitest';
import { OpenSearchEngine } from '../../src/search/opensearch/opensearch-engine.js';
import { createClusterClient } from '../../indexer/cluster.js';
import { aliasTargets } from '../../indexer/index-admin.js';
import { rebuildIndex } from '../../indexer/rebuild.js';
import { CONTRACT_ITEMS, loadStockFixture } from '../helpers/stock-fixture.js';
import { createTestDatabase } from '../helpers/test-database.js';
import { engineContract } from './engine-contract.js';

/**
 * The contract against a live cluster: OPENSEARCH_URL=http://localhost:9200 npm run test:opensearch.
 * A throwaway alias (and index) per run, loaded with the fixture through the reindex code.
 */
const OPENSEARCH_URL = process.env.OPENSEARCH_URL;

describe.skipIf(!OPENSEARCH_URL)('OpenSearch (OPENSEARCH_URL)', () => {
  engineContract('opensearch', async () => {
    const database = await createTestDatabase();
    await loadStockFixture(database.handle.db, CONTRACT_ITEMS);
    const client = createClusterClient(OPENSEARCH_URL!);
    const alias = `contract_${randomBytes(4).toString('hex')}`;
    await rebuildIndex(database.handle.db, client, alias);
    const engine = new OpenSearchEngine(client, { index: alias });
    return {
      engine,
      async close() {
        const indices = await aliasTargets(client, alias);
        if (indices.length) await client.indices.delete({ index: indices });
        await client.close();
        await database.drop();
      },
    };
  });
});
