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
  private pool: pg.Pool | null = null;

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
    while (this.running) {
      await this.listen();
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
    const listener = this.listener;
    this.listener = null;
    if (listener) {
      await listener.query('UNLISTEN search_outbox').catch(() => undefined);
      listener.release();
    }
  }
}
