import type { Client } from '@opensearch-project/opensearch';
import { sql } from 'kysely';
import { pino, type Logger } from 'pino';
import { startIndexer, type IndexerHandle } from '../../indexer/indexer.js';
import { startRedisServer, type RedisServerProcess } from '../../scripts/redis-server-process.js';
import { loadConfig } from '../../src/config.js';
import type { Database } from '../../src/db/database.js';
import { FaultProxy } from './fault-proxy.js';
import { clusterClient, dropAlias, TEST_OPENSEARCH_URL, uniqueAlias } from './opensearch.js';
import { insertGeneratedItems, loadStockFixture } from './stock-fixture.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/**
 * The real indexer (startIndexer, in the test's process) over things a fault test may break: a
 * database of its own (the fixture and 2,000 generated items from id 1000), a redis-server of its
 * own (it can be killed), and the live cluster behind a fault proxy (it can be made unreachable or
 * slow). Each start uses a fresh alias, with the verification sweep off and the retry delays
 * shrunk unless the settings say otherwise.
 */
export interface IndexerHarness {
  database: TestDatabase;
  db(): Database;
  redis: RedisServerProcess;
  proxy: FaultProxy;
  /** the cluster, directly */
  admin: Client;
  start(
    settings?: Record<string, string>,
    logger?: Logger,
    metricsPort?: number | null,
  ): Promise<{ alias: string; handle: IndexerHandle }>;
  /** stops the running indexer, lifts the proxy's faults (after each test) */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export async function openIndexerHarness(prefix: string): Promise<IndexerHarness> {
  const database = await createTestDatabase();
  const db = () => database.handle.db;
  await loadStockFixture(db());
  await insertGeneratedItems(db(), 1_000, 2_000);
  const redis = await startRedisServer();
  const proxy = await FaultProxy.start(TEST_OPENSEARCH_URL!);
  const admin = clusterClient();
  const aliases: string[] = [];
  let running: IndexerHandle | null = null;
  return {
    database,
    db,
    redis,
    proxy,
    admin,
    async start(settings = {}, logger = pino({ level: 'silent' }), metricsPort = null) {
      const alias = uniqueAlias(prefix);
      aliases.push(alias);
      // what an earlier case's alias left owed is settled, and its sweep forgotten: each case starts
      // owing nothing
      await sql`update search_outbox set done_at = now() where done_at is null`.execute(db());
      await sql`update search_indexer_state
                   set sweep_after_id = 0, last_sweep_completed_at = null, last_sweep_drift = null`.execute(
        db(),
      );
      const config = loadConfig({
        DATABASE_URL: database.url!,
        REDIS_URL: redis.url,
        OPENSEARCH_URL: proxy.url,
        OPENSEARCH_INDEX: alias,
        INDEXER_SWEEP_PERIOD_SECONDS: '0',
        INDEXER_RETRY_FIRST_MS: '100',
        INDEXER_RETRY_MAX_MS: '500',
        ...settings,
      });
      const handle = await startIndexer(config, logger, {
        metricsPort,
        metricsHost: '127.0.0.1',
        logEveryMs: 200,
      });
      running = handle;
      return { alias, handle };
    },
    async reset() {
      await running?.stop();
      running = null;
      proxy.clearFaults();
      await proxy.acceptConnections().catch(() => undefined);
    },
    async close() {
      await running?.stop();
      await proxy.close();
      for (const alias of aliases) await dropAlias(admin, alias);
      await admin.close();
      await redis.stop();
      await database.drop();
    },
  };
}
