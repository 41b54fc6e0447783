import type { Client } from '@opensearch-project/opensearch';
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';
import type { Logger } from '../../src/logger.js';
import { rangeEnd } from '../../src/search/stock-documents.js';
import type { IndexerMetrics, SweepStatus } from '../metrics.js';
import { checkRange } from './range-check.js';
import { repairInBackground } from './repair.js';

export interface SweepOptions {
  /** every range is verified once per this many seconds (0: no sweep) */
  periodSeconds: number;
  rangeSize: number;
}

/**
 * The indexer verifies the index by itself: a low-priority sweep over the id ranges, paced so that
 * one pass takes `periodSeconds` whatever the stock's size (one range at a time, a pause between
 * them), each difference repaired through the ordinary path and logged. Where the sweep stands is
 * kept in PostgreSQL (search_indexer_state): indexers share it, so two never verify the same range,
 * and a restart goes on where it stopped. What the last complete pass found is exported as
 * `search_index_drift_items` with the time it ended.
 */
export class VerificationSweep {
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  /** ranges in the current pass (counted again when a pass starts) */
  private ranges: number | null = null;

  constructor(
    private readonly db: Database,
    private readonly client: Client,
    private readonly alias: string,
    private readonly metrics: IndexerMetrics,
    private readonly logger: Logger,
    private readonly options: SweepOptions,
  ) {}

  start(): void {
    if (this.options.periodSeconds <= 0) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let pauseMs = 1_000;
      try {
        await this.step();
        pauseMs = await this.pause();
      } catch (error) {
        this.logger.warn(
          { err: error },
          'verification sweep: a range could not be checked; trying again later',
        );
        pauseMs = 10_000;
      }
      // stopped while a range was being checked: no pause to wait out
      if (!this.running) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pauseMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  /** The pause between ranges that makes one pass last the period (the stock counted at each pass's start). */
  private async pause(): Promise<number> {
    if (this.ranges === null) {
      const count = await sql<{ n: string }>`select count(*) as n from stock_items`.execute(this.db);
      this.ranges = Math.max(1, Math.ceil(Number(count.rows[0]!.n) / this.options.rangeSize));
    }
    return Math.max(50, (this.options.periodSeconds * 1000) / this.ranges);
  }

  /** Claims the next range, verifies it, repairs what differs; returns false when another indexer had it. */
  async step(): Promise<boolean> {
    const state = await this.db
      .selectFrom('search_indexer_state')
      .select('sweep_after_id')
      .where('singleton', '=', true)
      .executeTakeFirstOrThrow();
    const lo = Number(state.sweep_after_id);
    const hi = await rangeEnd(this.db, lo, this.options.rangeSize);
    const claimed = await this.db
      .updateTable('search_indexer_state')
      .set({
        sweep_after_id: hi ?? 0,
        ...(lo === 0 ? { sweep_started_at: sql<Date>`now()`, sweep_drift: 0 } : {}),
      })
      .where('singleton', '=', true)
      .where('sweep_after_id', '=', String(lo))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return false;

    const check = await checkRange(this.db, this.client, this.alias, lo, hi);
    if (check.differences.length) {
      await repairInBackground(this.db, this.metrics, this.logger, check.differences, 'verification sweep');
    }
    await this.db
      .updateTable('search_indexer_state')
      .set(
        hi === null
          ? {
              last_sweep_completed_at: sql<Date>`now()`,
              last_sweep_drift: sql<number>`sweep_drift + ${check.differences.length}`,
              sweep_drift: 0,
            }
          : { sweep_drift: sql<number>`sweep_drift + ${check.differences.length}` },
      )
      .where('singleton', '=', true)
      .execute();
    if (hi === null)
      this.logger.info({ alias: this.alias }, 'verification sweep: a pass over the whole index ended');
    await this.report();
    return true;
  }

  /** Exports where the sweep stands (from PostgreSQL: the same figures on every indexer). */
  async report(): Promise<SweepStatus> {
    const row = await sql<{
      completed: Date | null;
      drift: number | null;
      after: string;
      max: string | null;
    }>`
      select s.last_sweep_completed_at as completed, s.last_sweep_drift as drift, s.sweep_after_id as after,
             (select max(id) from stock_items) as max
        from search_indexer_state s where singleton`.execute(this.db);
    const r = row.rows[0]!;
    const status: SweepStatus = {
      lastCompletedAt: r.completed,
      lastDrift: r.drift,
      // ids run in one order, so the share of the id space covered is the share of the pass done
      progress: r.max === null || Number(r.max) === 0 ? 1 : Math.min(1, Number(r.after) / Number(r.max)),
    };
    this.metrics.setSweep(status);
    return status;
  }
}
