import type pg from 'pg';
import type { Queue } from 'bullmq';
import type { Database } from '../src/db/database.js';
import type { Logger } from '../src/logger.js';
import { relayBatch } from './outbox.js';
import { enqueue, type IndexJob } from './worker.js';
import type { IndexerMetrics } from './metrics.js';

export interface RelayOptions {
  batchSize?: number;
  /** polling is the mechanism; NOTIFY only shortens the wait */
  pollMs?: number;
}

/** Moves pending outbox rows into the queue until stopped. */
export class OutboxRelay {
  private running = false;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private listener: pg.PoolClient | null = null;

  constructor(
    private readonly db: Database,
    private readonly queue: Queue<IndexJob>,
    private readonly metrics: IndexerMetrics,
    private readonly logger: Logger,
    private readonly options: RelayOptions = {},
  ) {}

  /** Relays everything pending now; returns the number of rows relayed. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await relayBatch(this.db, this.options.batchSize ?? 1_000, (entries) =>
        enqueue(this.queue, entries),
      );
      this.metrics.count('enqueued', n);
      total += n;
      if (n === 0) return total;
    }
  }

  async start(pool: pg.Pool | null): Promise<void> {
    this.running = true;
    if (pool) {
      this.listener = await pool.connect();
      this.listener.on('notification', () => this.wake?.());
      await this.listener.query('LISTEN search_outbox');
    }
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        await this.drain();
      } catch (error) {
        this.logger.error({ err: error }, 'outbox relay failed; retrying');
      }
      if (!this.running) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.pollMs ?? 1_000);
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
    if (this.listener) {
      await this.listener.query('UNLISTEN search_outbox').catch(() => undefined);
      this.listener.release();
    }
  }
}
