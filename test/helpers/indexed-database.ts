import type { Client } from '@opensearch-project/opensearch';
import { afterAll, beforeAll } from 'vitest';
import { createClusterClient } from '../../indexer/cluster.js';
import { rebuildIndex } from '../../indexer/rebuild.js';
import type { Database } from '../../src/db/database.js';
import { dropAlias, TEST_OPENSEARCH_URL, uniqueAlias } from './opensearch.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export interface IndexedDatabase {
  database: TestDatabase;
  client: Client;
  alias: string;
}

/**
 * A database `load` fills and an index built from it by the reindex code, for the suite that calls
 * it (before its tests; both dropped after them). Read the returned object's fields inside tests.
 */
export function useIndexedDatabase(
  prefix: string,
  load: (db: Database) => Promise<void>,
  timeoutMs?: number,
): IndexedDatabase {
  const indexed = { alias: uniqueAlias(prefix) } as IndexedDatabase;
  beforeAll(async () => {
    indexed.database = await createTestDatabase();
    await load(indexed.database.handle.db);
    indexed.client = createClusterClient(TEST_OPENSEARCH_URL!);
    await rebuildIndex(indexed.database.handle.db, indexed.client, indexed.alias);
  }, timeoutMs);
  afterAll(async () => {
    if (indexed.client) {
      await dropAlias(indexed.client, indexed.alias);
      await indexed.client.close();
    }
    await indexed.database?.drop();
  });
  return indexed;
}
