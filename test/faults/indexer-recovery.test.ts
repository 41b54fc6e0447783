import type { Client } from '@opensearch-project/opensearch';
import type { Queue, Worker } from 'bullmq';
import { sql } from 'kysely';
import { pino, type Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClusterClient } from '../../indexer/cluster.js';
import { IndexerMetrics } from '../../indexer/metrics.js';
import { OutboxRelay } from '../../indexer/relay.js';
import { rebuildIndex } from '../../indexer/rebuild.js';
import { BatchIndexer, createIndexQueue, startWorker, type IndexJob } from '../../indexer/worker.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { documentVersion } from '../helpers/index-contents.js';
import {
  CAN_RUN_INDEXER,
  clusterClient,
  dropAlias,
  TEST_OPENSEARCH_URL,
  uniqueAlias,
  waitUntil,
} from '../helpers/opensearch.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { TEST_REDIS_URL } from '../helpers/test-env.js';

const silent = pino({ level: 'silent' });

/**
 * What happens to indexing work when the cluster cannot be reached, or a worker dies in the middle
 * of a batch: the live cluster, reached by the workers through a fault proxy that can refuse
 * connections; real PostgreSQL and Redis. Outcomes are read from the index itself.
 */
describe.skipIf(!CAN_RUN_INDEXER)('indexer recovery on the live cluster', () => {
  let database: TestDatabase;
  let admin: Client;
  let proxy: FaultProxy;
  let throughProxy: Client;
  let queue: Queue<IndexJob>;
  let relay: OutboxRelay;
  const workers: Worker<IndexJob>[] = [];
  const metrics = new IndexerMetrics();
  const alias = uniqueAlias('recovery');
  const prefix = `bull-${alias}`;
  const url = new URL(TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  const connection = { host: url.hostname, port: Number(url.port || 6379), maxRetriesPerRequest: null };
  // Short locks and stalled checks, so a dead worker's jobs come back within a second. Every worker
  // of the queue uses them: the stalled check runs at most once per interval across all workers.
  const fastRecovery = { prefix, lockDurationMs: 1_000, stalledIntervalMs: 300 };
  const db = () => database.handle.db;

  beforeAll(async () => {
    database = await createTestDatabase();
    await loadStockFixture(db());
    admin = clusterClient();
    await rebuildIndex(db(), admin, alias);
    proxy = await FaultProxy.start(TEST_OPENSEARCH_URL!);
    throughProxy = createClusterClient(proxy.url);
    queue = createIndexQueue(connection, { prefix, backoffMs: 100 });
    relay = new OutboxRelay(db(), queue, metrics, silent);
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close(true)));
    await queue?.obliterate({ force: true }).catch(() => undefined);
    await queue?.close();
    await throughProxy?.close();
    await proxy?.close();
    if (admin) await dropAlias(admin, alias);
    await admin?.close();
    await database?.drop();
  });

  /** A worker writing through the proxy, whose batches wait `lingerMs` before their bulk request. */
  function worker(logger: Logger, lingerMs: number): Worker<IndexJob> {
    const batcher = new BatchIndexer(db(), throughProxy, alias, metrics, logger, lingerMs);
    const started = startWorker(connection, batcher, logger, fastRecovery);
    workers.push(started);
    return started;
  }

  const rowVersions = async (ids: number[]) =>
    (
      await sql<{ id: string; version: string }>`
        select id, version from stock_items where id = any(${ids.map(String)}::bigint[]) order by id`.execute(
        db(),
      )
    ).rows.map((r) => [Number(r.id), Number(r.version)] as const);

  /** Every item at its row version in the live index. */
  const allIndexed = async (rows: (readonly [number, number])[]) => {
    for (const [id, version] of rows) if ((await documentVersion(admin, alias, id)) !== version) return false;
    return true;
  };

  it('while the cluster cannot be reached the batch fails, names its items, and the jobs are retried until indexed', async () => {
    const logged: { msg: string; itemId?: number; attempts?: number }[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => logged.push(JSON.parse(line)) });
    const first = worker(logger, 10);
    await proxy.refuseConnections();
    try {
      await sql`update stock_items set price = price + 1 where id in (1, 2)`.execute(db());
      expect(await relay.drain()).toBe(2);
      const failedItems = () =>
        new Set(logged.filter((l) => l.msg === 'indexing job failed').map((l) => l.itemId));
      await waitUntil(async () => failedItems().has(1) && failedItems().has(2), 'both jobs to fail once');
      expect(logged.filter((l) => l.msg === 'indexing job failed').every((l) => (l.attempts ?? 0) >= 1)).toBe(
        true,
      );
    } finally {
      await proxy.acceptConnections();
    }
    const expected = await rowVersions([1, 2]);
    expect(await allIndexed(expected)).toBe(false);
    await waitUntil(() => allIndexed(expected), 'the retried writes', 30_000);
    await waitUntil(
      async () => (await queue.getJobCounts('active', 'waiting', 'delayed')).delayed === 0,
      'the queue to settle',
    );
    expect((await queue.getJobCounts('failed')).failed).toBe(0);
    await first.close();
  });

  it('a worker that dies mid-batch leaves its jobs to another worker, which indexes them', async () => {
    // The batch in hand never reaches the cluster: a long linger, then the worker stops without
    // waiting for it (as a killed process would).
    const dying = worker(silent, 60_000);
    await sql`update stock_items set quantity = quantity + 1 where id in (3, 4)`.execute(db());
    expect(await relay.drain()).toBe(2);
    await waitUntil(async () => (await queue.getJobCounts('active')).active === 2, 'the jobs to be taken');
    const bulksBefore = proxy.received('POST', /^\/_bulk$/).length;
    await dying.close(true);

    // The outbox rows are relayed (done), the documents are not written: the jobs carry the work.
    const pending = await sql<{
      n: string;
    }>`select count(*) as n from search_outbox where done_at is null`.execute(db());
    expect(Number(pending.rows[0]!.n)).toBe(0);
    expect(proxy.received('POST', /^\/_bulk$/)).toHaveLength(bulksBefore);
    const expected = await rowVersions([3, 4]);
    expect(await allIndexed(expected)).toBe(false);

    worker(silent, 10);
    await waitUntil(() => allIndexed(expected), 'the stalled jobs to be indexed by the other worker', 30_000);
    await waitUntil(async () => (await queue.getJobCounts('active')).active === 0, 'the queue to settle');
    expect((await queue.getJobCounts('failed')).failed).toBe(0);
  });
});
