import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Queue } from 'bullmq';
import type { Database } from '../src/db/database.js';
import type { Logger } from '../src/logger.js';
import type { IndexJob, OwedChange } from './index-queue.js';
import type { IndexerMetrics } from './metrics.js';
import {
  claimAvailable,
  jobsAwaited,
  keepWithJob,
  releaseClaim,
  releaseJobs,
  type OwedRow,
} from './outbox.js';

export interface RelayOptions {
  /** owed rows per job (one bulk request each) */
  batchSize: number;
  /** how long a handed-out row waits for its confirmation before it is handed out again */
  leaseSeconds: number;
  /** jobs waiting in the queue beyond which the relay holds back (the worker is behind or paused) */
  maxQueuedJobs: number;
  /** polling is the mechanism; NOTIFY only shortens the wait */
  pollMs: number;
  /**
   * how often the jobs that handed-out rows wait on are looked up in the queue: rows whose job is
   * gone (Redis emptied) or ended without settling them go out again then, not only when their
   * lease ends
   */
  lostJobCheckMs: number;
}

export const DEFAULT_RELAY_OPTIONS: RelayOptions = {
  batchSize: 1_000,
  leaseSeconds: 120,
  maxQueuedJobs: 20,
  pollMs: 1_000,
  lostJobCheckMs: 5_000,
};

/** Job states in which a job will still be processed: rows handed to it wait for it. */
const ALIVE = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

/**
 * Hands owed outbox rows to the queue, in jobs of up to `batchSize` rows, and hands out again the
 * rows whose lease ended without a confirmation: their job was lost (Redis emptied, the job removed),
 * failed, or finished without settling them (the index refused, PostgreSQL was away). A row whose job
 * is still queued or running has its lease extended instead, so a long outage of the cluster does
 * not pile up copies of the same work.
 */
export class OutboxRelay {
  private running = false;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private listener: pg.PoolClient | null = null;
  private pool: pg.Pool | null = null;
  private readonly options: RelayOptions;

  constructor(
    private readonly db: Database,
    private readonly queue: Queue<IndexJob>,
    private readonly metrics: IndexerMetrics,
    private readonly logger: Logger,
    options: Partial<RelayOptions> = {},
  ) {
    this.options = { ...DEFAULT_RELAY_OPTIONS, ...options };
  }

  /** Hands out everything available now (while the queue has room); returns the rows handed out. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      if (!(await this.queueHasRoom())) return total;
      const jobId = randomUUID();
      const rows = await claimAvailable(this.db, this.options.batchSize, this.options.leaseSeconds, jobId);
      if (rows.length === 0) return total;
      total += await this.handOut(jobId, rows);
    }
  }

  private async queueHasRoom(): Promise<boolean> {
    const counts = await this.queue.getJobCounts('waiting', 'prioritized', 'delayed');
    const queued = (counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.delayed ?? 0);
    return queued < this.options.maxQueuedJobs;
  }

  /**
   * The claimed rows go to the queue as `jobId`, except those whose earlier job is still queued or
   * running: they stay with it (their lease renewed by the claim).
   */
  private async handOut(jobId: string, rows: OwedRow[]): Promise<number> {
    const alive = await this.aliveJobs(rows);
    const stay = rows.filter((r) => r.jobId !== null && alive.has(r.jobId));
    const toHand: OwedChange[] = rows
      .filter((r) => r.jobId === null || !alive.has(r.jobId))
      .map(({ itemId, version, deleted }) => ({ itemId, version, deleted }));
    const again = rows.filter((r) => r.jobId !== null && !alive.has(r.jobId)).length;
    if (again > 0) {
      this.metrics.count('handedAgain', again);
      this.logger.warn(
        { rows: again },
        'changes handed out again: their job was lost or ended without the index confirming them',
      );
    }
    await keepWithJob(this.db, stay);
    if (toHand.length === 0) return 0;
    try {
      await this.queue.add('index', { changes: toHand }, { jobId });
    } catch (error) {
      await releaseClaim(this.db, toHand);
      throw error;
    }
    this.metrics.count('handed', toHand.length);
    return toHand.length;
  }

  /** Of the jobs these rows were last handed to, those still queued or running. */
  private async aliveJobs(rows: OwedRow[]): Promise<Set<string>> {
    return this.alive([...new Set(rows.map((r) => r.jobId).filter((id): id is string => id !== null))]);
  }

  private async alive(jobIds: string[]): Promise<Set<string>> {
    const states = await Promise.all(jobIds.map((id) => this.queue.getJobState(id)));
    return new Set(jobIds.filter((_, i) => ALIVE.has(states[i]!)));
  }

  /**
   * Rows still waiting on a job that the queue no longer has, or that ended without settling them,
   * are made available at once: after Redis lost its data the index catches up within this check's
   * period instead of a lease. Returns the rows released.
   */
  async releaseLostJobs(): Promise<number> {
    const awaited = await jobsAwaited(this.db, 500);
    const alive = await this.alive(awaited);
    const lost = awaited.filter((id) => !alive.has(id));
    const released = await releaseJobs(this.db, lost);
    if (released > 0) {
      this.logger.warn(
        { rows: released, jobs: lost.length },
        'changes whose job the queue lost or ended without the index confirming them: handing them out again',
      );
    }
    return released;
  }

  async start(pool: pg.Pool | null): Promise<void> {
    this.running = true;
    this.pool = pool;
    await this.listen();
    this.loop = this.run();
  }

  /**
   * LISTEN on a connection of its own, so a change wakes the relay at once. A connection that is
   * lost (the server restarted, the backend was terminated) is dropped and taken again on a later
   * round; until then polling alone keeps the relay going.
   */
  private async listen(): Promise<void> {
    if (!this.pool || this.listener) return;
    let client: pg.PoolClient | null = null;
    try {
      client = await this.pool.connect();
      const connection = client;
      connection.on('notification', () => this.wake?.());
      connection.on('error', (error: Error) => {
        if (this.listener !== connection) return;
        this.listener = null;
        connection.release(error);
        this.logger.warn({ err: error }, 'outbox relay lost its LISTEN connection; polling until it is back');
      });
      await connection.query('LISTEN search_outbox');
      this.listener = connection;
    } catch (error) {
      client?.release(error as Error);
      this.logger.warn({ err: error }, 'outbox relay could not LISTEN; polling meanwhile');
    }
  }

  private async run(): Promise<void> {
    let lostCheckedAt = Date.now();
    while (this.running) {
      await this.listen();
      try {
        if (Date.now() - lostCheckedAt >= this.options.lostJobCheckMs) {
          lostCheckedAt = Date.now();
          await this.releaseLostJobs();
        }
        await this.drain();
      } catch (error) {
        this.logger.error({ err: error }, 'outbox relay failed; retrying');
      }
      if (!this.running) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.pollMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    const listener = this.listener;
    this.listener = null;
    if (listener) {
      await listener.query('UNLISTEN search_outbox').catch(() => undefined);
      listener.release();
    }
  }
}
