import type { Database } from '../../src/db/database.js';
import {
  CAN_RUN_INDEXER,
  clusterClient,
  dropAlias,
  dropIndexerQueue,
  startIndexerProcess,
  TEST_OPENSEARCH_URL,
  uniqueAlias,
  type IndexerProcess,
} from './opensearch.js';
import { startTestApp, type TestApp, type TestAppOptions } from './test-app.js';
import { createTestDatabase } from './test-database.js';
import { TEST_DATABASE_URL } from './test-env.js';

export type EngineName = 'postgres' | 'opensearch';

/**
 * What answers an HTTP suite's searches: the Postgres engine on PostgreSQL (the production shape
 * without a cluster) or on PGlite (the embedded default `npm start` runs), or the OpenSearch engine
 * (whose indexer needs PostgreSQL).
 */
export type EngineTarget = 'postgres' | 'postgres (PGlite)' | 'opensearch';

/**
 * The targets an HTTP suite runs on: the Postgres engine on PGlite always, and on PostgreSQL when
 * DATABASE_URL is set; the OpenSearch engine whenever a cluster (and the PostgreSQL and Redis its
 * indexer needs) is there. CI requires all three.
 */
export const ENGINES: EngineTarget[] = [
  ...(TEST_DATABASE_URL ? (['postgres'] as const) : []),
  'postgres (PGlite)',
  ...(CAN_RUN_INDEXER ? (['opensearch'] as const) : []),
];

export interface EngineApp extends TestApp {
  /** the engine answering (the target says on which database) */
  engine: EngineName;
  target: EngineTarget;
  /** environment that puts another app on the same engine and index (several API processes) */
  engineEnv: Record<string, string>;
  /** the indexer process keeping the index in step (OpenSearch only) */
  indexer: IndexerProcess | null;
}

/**
 * An app answering searches from `target`, over a database `load` has filled first. On OpenSearch
 * it runs in the production shape: the indexer as its own process builds the index from the
 * database (as on its first start), then follows changes; the API reads the alias.
 */
export async function startEngineApp(
  target: EngineTarget,
  load: (db: Database) => Promise<void>,
  options: Omit<TestAppOptions, 'database' | 'databaseKind'> = {},
): Promise<EngineApp> {
  if (target !== 'opensearch') {
    const databaseKind = target === 'postgres' ? 'postgres' : 'pglite';
    const app = await startTestApp({ ...options, databaseKind });
    await load(app.services.db);
    return { ...app, engine: 'postgres', target, engineEnv: {}, indexer: null };
  }
  if (!TEST_OPENSEARCH_URL) throw new Error('OPENSEARCH_URL is not set');
  const database = await createTestDatabase();
  await load(database.handle.db);
  const alias = uniqueAlias('http');
  let indexer: IndexerProcess | null = null;
  try {
    indexer = await startIndexerProcess({ databaseUrl: database.url!, alias });
    const engineEnv = {
      SEARCH_ENGINE: 'opensearch',
      OPENSEARCH_URL: TEST_OPENSEARCH_URL,
      OPENSEARCH_INDEX: alias,
    };
    const app = await startTestApp({ ...options, database, env: { ...options.env, ...engineEnv } });
    return {
      ...app,
      engine: 'opensearch',
      target,
      engineEnv,
      indexer,
      async close() {
        await app.close();
        await dropIndexer(indexer, alias);
        await database.drop();
      },
    };
  } catch (error) {
    await dropIndexer(indexer, alias);
    await database.drop();
    throw error;
  }
}

/** Stops the indexer process of an alias, then drops its indices and its queue. */
async function dropIndexer(indexer: IndexerProcess | null, alias: string): Promise<void> {
  await indexer?.stop();
  const client = clusterClient();
  try {
    await dropAlias(client, alias);
  } finally {
    await client.close();
  }
  await dropIndexerQueue(alias);
}
