import { Worker, type ConnectionOptions, type Job, type Queue } from 'bullmq';
import { deliverChanges, type DeliveryTarget } from './delivery.js';
import { QUEUE_NAME, queuePrefix, type IndexJob } from './index-queue.js';
import { isPassingFailure } from './passing-failures.js';

export interface WorkerOptions {
  /** jobs (bulk requests) in flight at once */
  concurrency: number;
  /** the first wait after a passing failure; each further one doubles it, up to `retryMaxMs` */
  retryFirstMs: number;
  retryMaxMs: number;
  /**
   * How long a job stays claimed without its worker renewing the lock, and how often workers look
   * for such jobs: a worker that dies mid-bulk leaves its job to another after about this long
   * (BullMQ's stalled-job check). The relay's lease covers the rest.
   */
  lockDurationMs: number;
  stalledIntervalMs: number;
}

export const DEFAULT_WORKER_OPTIONS: WorkerOptions = {
  concurrency: 4,
  retryFirstMs: 1_000,
  retryMaxMs: 30_000,
  lockDurationMs: 30_000,
  stalledIntervalMs: 30_000,
};

/** The wait before the next try after passing failures in a row: doubling, capped, reset by a success. */
class RetryDelay {
  private failures = 0;
  constructor(
    private readonly firstMs: number,
    private readonly maxMs: number,
  ) {}
  next(): number {
    const delay = Math.min(this.firstMs * 2 ** this.failures, this.maxMs);
    this.failures = Math.min(this.failures + 1, 30);
    return delay;
  }
  reset(): void {
    this.failures = 0;
  }
}

/**
 * The consumer: each job is a batch of owed changes written in one bulk request (deliverChanges).
 * A passing cause — the cluster unreachable, slow, overloaded (429), failing (5xx), an index
 * blocked or missing, PostgreSQL away — spends no attempt: the queue is rate-limited for a delay
 * that doubles up to `retryMaxMs` and the job goes back to wait, so a worker does nothing but wait
 * while the cluster is down and resumes within that delay of its return. Only an error of our own
 * (a bug) fails the job after its attempts; its rows, never settled, are handed out again by the
 * relay once their lease ends.
 */
export function startWorker(
  connection: ConnectionOptions,
  queue: Queue<IndexJob>,
  target: DeliveryTarget,
  options: Partial<WorkerOptions> = {},
): Worker<IndexJob> {
  const o = { ...DEFAULT_WORKER_OPTIONS, ...options };
  const retry = new RetryDelay(o.retryFirstMs, o.retryMaxMs);
  const { logger } = target;

  async function waitAndRetry(cause: unknown, what: string): Promise<never> {
    const delay = retry.next();
    target.metrics.count('retries', 1);
    logger.warn({ err: cause, retryInMs: delay }, `${what}; the batch goes back to the queue`);
    await queue.rateLimit(delay);
    throw Worker.RateLimitError();
  }

  const process = async (job: Job<IndexJob>): Promise<void> => {
    let failed;
    try {
      ({ failed } = await deliverChanges(target, job.data.changes));
    } catch (error) {
      if (isPassingFailure(error))
        return waitAndRetry(error, 'indexing paused: a dependency is not answering');
      throw error;
    }
    if (failed.length > 0) {
      return waitAndRetry(
        {
          items: failed.slice(0, 5).map((f) => ({ itemId: f.itemId, reason: f.reason })),
          count: failed.length,
        },
        'the index refused documents for a passing cause',
      );
    }
    retry.reset();
  };

  const worker = new Worker<IndexJob>(QUEUE_NAME, process, {
    connection,
    prefix: queuePrefix(target.alias),
    concurrency: o.concurrency,
    lockDuration: o.lockDurationMs,
    stalledInterval: o.stalledIntervalMs,
  });
  worker.on('failed', (job, error) => {
    logger.error(
      { jobId: job?.id, changes: job?.data.changes.length, attempts: job?.attemptsMade, err: error },
      'indexing job failed; its changes stay owed and are handed out again',
    );
  });
  // Without a listener an error of the worker itself (Redis lost, a lock not renewed) would only
  // reach the console; the structured log is where an operator looks.
  worker.on('error', (error) => logger.error({ err: error }, 'indexing worker error'));
  return worker;
}
