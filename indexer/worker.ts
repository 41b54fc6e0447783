import type { Client } from '@opensearch-project/opensearch';
import { Queue, Worker, type ConnectionOptions, type Job } from 'bullmq';
import type { Database } from '../src/db/database.js';
import type { Logger } from '../src/logger.js';
import { readStockDocuments } from '../src/search/stock-documents.js';
import { writeBatch } from './cluster.js';
import type { IndexerMetrics } from './metrics.js';
import type { OutboxEntry } from './outbox.js';

export const QUEUE_NAME = 'search-index';

/** One job per item version; the id makes a repeated enqueue of the same change a no-op. */
export interface IndexJob {
  itemId: number;
  version: number;
  deleted: boolean;
}

export const jobId = (e: { itemId: number; version: number }): string => `item-${e.itemId}-v${e.version}`;

export interface QueueOptions {
  /** keeps several deployments (or test runs) on one Redis apart */
  prefix?: string;
  /** first retry delay; each further attempt waits twice as long */
  backoffMs?: number;
}

export function createIndexQueue(
  connection: ConnectionOptions,
  { prefix, backoffMs = 1_000 }: QueueOptions = {},
): Queue<IndexJob> {
  return new Queue<IndexJob>(QUEUE_NAME, {
    connection,
    ...(prefix ? { prefix } : {}),
    defaultJobOptions: {
      attempts: 8,
      backoff: { type: 'exponential', delay: backoffMs },
      // Completed ids are kept for an hour so a redelivered outbox row is still deduped.
      removeOnComplete: { age: 3_600, count: 100_000 },
      removeOnFail: { age: 7 * 24 * 3_600 },
    },
  });
}

export async function enqueue(queue: Queue<IndexJob>, entries: OutboxEntry[]): Promise<void> {
  await queue.addBulk(
    entries.map((e) => ({
      name: 'index',
      data: { itemId: e.itemId, version: e.version, deleted: e.deleted },
      opts: { jobId: jobId(e) },
    })),
  );
}

interface Pending {
  job: IndexJob;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * Jobs are per item, bulk requests are per batch: the worker runs many jobs at once and this
 * gathers those in flight into one read from Postgres and one bulk request.
 */
export class BatchIndexer {
  private pending: Pending[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Database,
    private readonly client: Client,
    private readonly index: string,
    private readonly metrics: IndexerMetrics,
    private readonly logger: Logger,
    private readonly lingerMs = 25,
    private readonly maxBatch = 500,
  ) {}

  add(job: IndexJob): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ job, resolve, reject });
      if (this.pending.length >= this.maxBatch) void this.flush();
      else if (!this.timer) {
        this.timer = setTimeout(() => void this.flush(), this.lingerMs);
        // A pending linger never keeps a stopping process alive (shutdown flushes explicitly).
        this.timer.unref();
      }
    });
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    try {
      const ids = [...new Set(batch.map((p) => p.job.itemId))];
      // The current row is what gets written, whatever version the job named: a job that arrives
      // late writes today's data, and the external version keeps an older write from winning.
      const documents = await readStockDocuments(this.db, ids);
      const present = new Set(documents.map((d) => d.id));
      const deletions = new Map<number, number>();
      for (const { job } of batch) {
        if (present.has(job.itemId)) continue;
        deletions.set(job.itemId, Math.max(job.version, deletions.get(job.itemId) ?? 0));
      }
      const outcome = await writeBatch(
        this.client,
        this.index,
        { documents, deletions: [...deletions].map(([id, version]) => ({ id, version })) },
        true,
      );
      this.metrics.count('indexed', documents.length - outcome.failed.length);
      this.metrics.count('deleted', deletions.size);
      this.metrics.count('stale', outcome.stale);
      const failed = new Set(outcome.failed.map((f) => Number(f.id)));
      if (outcome.failed.length) {
        this.metrics.count('failed', outcome.failed.length);
        this.logger.warn({ failed: outcome.failed }, 'documents not indexed; their jobs will be retried');
      }
      for (const p of batch) {
        if (failed.has(p.job.itemId)) p.reject(new Error(`item ${p.job.itemId} not indexed`));
        else p.resolve();
      }
    } catch (error) {
      for (const p of batch) p.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

export interface WorkerOptions {
  /** jobs taken at once; the batcher gathers them into bulk requests */
  concurrency?: number;
  prefix?: string;
  /**
   * How long a job stays claimed without its worker renewing the lock, and how often workers look
   * for such jobs: a worker that dies mid-batch leaves its jobs to be retried by another after
   * about this long (BullMQ's stalled-job check).
   */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
}

export function startWorker(
  connection: ConnectionOptions,
  batcher: BatchIndexer,
  logger: Logger,
  { concurrency = 200, prefix, lockDurationMs = 30_000, stalledIntervalMs = 30_000 }: WorkerOptions = {},
): Worker<IndexJob> {
  const worker = new Worker<IndexJob>(QUEUE_NAME, (job: Job<IndexJob>) => batcher.add(job.data), {
    connection,
    concurrency,
    lockDuration: lockDurationMs,
    stalledInterval: stalledIntervalMs,
    ...(prefix ? { prefix } : {}),
  });
  worker.on('failed', (job, error) => {
    logger.error(
      {
        itemId: job?.data.itemId,
        version: job?.data.version,
        attempts: job?.attemptsMade,
        err: error.message,
      },
      'indexing job failed',
    );
  });
  return worker;
}
