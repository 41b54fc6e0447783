import type { Queue, Worker } from 'bullmq';
import { sql } from 'kysely';
import { pino, type Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexerMetrics } from '../../indexer/metrics.js';
import { enableOutbox } from '../../indexer/outbox.js';
import { OutboxRelay } from '../../indexer/relay.js';
import { BatchIndexer, createIndexQueue, startWorker, type IndexJob } from '../../indexer/worker.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { TEST_REDIS_URL } from '../helpers/test-env.js';
import { ClusterMock, VersionedBulkCluster, mockClient } from '../opensearch/mock-cluster.js';

const silent = pino({ level: 'silent' });

/** What happens to indexing work when the cluster fails or a worker dies in the middle of a batch. */
describe.skipIf(!TEST_REDIS_URL)('indexer recovery (real Postgres and Redis, mock cluster)', () => {
  let database: TestDatabase;
  let queue: Queue<IndexJob>;
  let relay: OutboxRelay;
  const workers: Worker<IndexJob>[] = [];
  const mock = new ClusterMock();
  const client = mockClient(mock);
  const cluster = new VersionedBulkCluster(mock);
  const metrics = new IndexerMetrics();
  const prefix = `pss-recovery-${process.pid}-${Date.now()}`;
  const url = new URL(TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  const connection = { host: url.hostname, port: Number(url.port || 6379), maxRetriesPerRequest: null };
  // Short locks and stalled checks, so a dead worker's jobs come back within a second. Every worker
  // of the queue uses them: the stalled check runs at most once per interval across all workers.
  const fastRecovery = { prefix, lockDurationMs: 1_000, stalledIntervalMs: 300 };

  beforeAll(async () => {
    database = await createTestDatabase();
    await loadStockFixture(database.handle.db);
    await enableOutbox(database.handle.db);
    queue = createIndexQueue(connection, { prefix, backoffMs: 100 });
    relay = new OutboxRelay(database.handle.db, queue, metrics, silent);
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close(true)));
    await queue?.obliterate({ force: true }).catch(() => undefined);
    await queue?.close();
    await database?.drop();
  });

  async function waitFor(check: () => boolean | Promise<boolean>, what: string, ms = 15_000) {
    const until = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** A worker whose batches wait `lingerMs` before their bulk request. */
  function worker(logger: Logger, lingerMs: number): Worker<IndexJob> {
    const batcher = new BatchIndexer(database.handle.db, client, 'stock', metrics, logger, lingerMs);
    const started = startWorker(connection, batcher, logger, fastRecovery);
    workers.push(started);
    return started;
  }

  const versionsOf = async (ids: number[]) =>
    (
      await sql<{ id: string; version: string }>`
        select id, version from stock_items where id = any(${ids.map(String)}::bigint[]) order by id`.execute(
        database.handle.db,
      )
    ).rows.map((r) => [r.id, Number(r.version)] as const);

  const pendingOutboxRows = async () =>
    Number(
      (
        await sql<{ n: string }>`select count(*) as n from search_outbox where done_at is null`.execute(
          database.handle.db,
        )
      ).rows[0]!.n,
    );

  it('an unreachable cluster fails the batch, logs the item ids, and the jobs are retried until indexed', async () => {
    const logged: { msg: string; itemId?: number; attempts?: number }[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => logged.push(JSON.parse(line)) });
    const first = worker(logger, 10);
    cluster.failures = 1;
    await sql`update stock_items set price = price + 1 where id in (1, 2)`.execute(database.handle.db);
    expect(await relay.drain()).toBe(2);

    const expected = await versionsOf([1, 2]);
    await waitFor(() => expected.every(([id, v]) => cluster.versions.get(id) === v), 'the retried writes');
    expect(cluster.failures).toBe(0);
    const failures = logged.filter((l) => l.msg === 'indexing job failed');
    expect(failures.map((l) => l.itemId).sort()).toEqual([1, 2]);
    expect(failures.every((l) => l.attempts === 1)).toBe(true);
    await first.close();
  });

  it('a worker that dies mid-batch leaves its jobs to another worker, which indexes them', async () => {
    // The batch in hand never reaches the cluster: a long linger, then the worker stops without
    // waiting for it (as a killed process would).
    const dying = worker(silent, 60_000);
    await sql`update stock_items set quantity = quantity + 1 where id in (3, 4)`.execute(database.handle.db);
    expect(await relay.drain()).toBe(2);
    await waitFor(async () => (await queue.getJobCounts('active')).active === 2, 'the jobs to be taken');
    const bulksBefore = cluster.bulks.length;
    await dying.close(true);

    // The outbox rows are relayed (done), the documents are not written: the jobs carry the work.
    expect(await pendingOutboxRows()).toBe(0);
    expect(cluster.bulks.length).toBe(bulksBefore);

    worker(silent, 10);
    const expected = await versionsOf([3, 4]);
    await waitFor(
      () => expected.every(([id, v]) => cluster.versions.get(id) === v),
      'the stalled jobs to be indexed by the other worker',
    );
    await waitFor(async () => (await queue.getJobCounts('active')).active === 0, 'the queue to settle');
    expect((await queue.getJobCounts('failed')).failed).toBe(0);
  });
});
