import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { LedgerStatus } from './outbox.js';

type CounterName =
  'indexed' | 'deleted' | 'stale' | 'rejected' | 'failed' | 'retries' | 'handed' | 'handedAgain' | 'repaired';

const COUNTERS: Record<CounterName, { name: string; help: string }> = {
  indexed: { name: 'search_indexer_documents_indexed_total', help: 'documents the index acknowledged' },
  deleted: { name: 'search_indexer_documents_deleted_total', help: 'tombstones the index acknowledged' },
  stale: {
    name: 'search_indexer_stale_versions_total',
    help: 'writes refused because the index already held that or a newer version (acknowledged)',
  },
  rejected: {
    name: 'search_indexer_rejected_documents_total',
    help: 'documents the cluster refused for their content (kept owed, tried again later)',
  },
  failed: {
    name: 'search_indexer_failures_total',
    help: 'documents the cluster refused for a passing cause (written again later)',
  },
  retries: {
    name: 'search_indexer_retries_total',
    help: 'batches put back in the queue because a dependency failed (no attempt spent)',
  },
  handed: { name: 'search_indexer_jobs_enqueued_total', help: 'owed changes handed to the queue' },
  handedAgain: {
    name: 'search_indexer_changes_handed_again_total',
    help: 'owed changes handed out again after their lease ended without a confirmation',
  },
  repaired: {
    name: 'search_index_repairs_total',
    help: 'items found different from PostgreSQL and written again (sweep and index:verify --repair)',
  },
};

/** What the last complete sweep found (indexer/verify/sweep.ts), as PostgreSQL keeps it. */
export interface SweepStatus {
  lastCompletedAt: Date | null;
  lastDrift: number | null;
  /** share of the id ranges the current pass has covered, 0..1 */
  progress: number;
}

/**
 * The figures an operator needs: what the index owes and since when, what it refused, what the
 * verification found, and the indexer's throughput. Kept as plain numbers (for the progress log
 * lines) and as Prometheus metrics (prom-client) on the indexer's /metrics.
 */
export class IndexerMetrics {
  readonly registry = new Registry();
  readonly totals: Record<CounterName, number> = {
    indexed: 0,
    deleted: 0,
    stale: 0,
    rejected: 0,
    failed: 0,
    retries: 0,
    handed: 0,
    handedAgain: 0,
    repaired: 0,
  };
  ledger: LedgerStatus = { owed: 0, handed: 0, rejected: 0, oldestSeconds: 0 };
  private readonly counters: Record<CounterName, Counter>;
  private readonly gauges: Record<
    'owed' | 'handed' | 'rejected' | 'lag' | 'drift' | 'lastSweep' | 'sweepProgress' | 'noeviction',
    Gauge
  >;
  private lastDone = 0;
  private lastAt = Date.now();

  constructor() {
    const registers = [this.registry];
    this.counters = Object.fromEntries(
      Object.entries(COUNTERS).map(([key, c]) => [key, new Counter({ ...c, registers })]),
    ) as Record<CounterName, Counter>;
    const gauge = (name: string, help: string) => new Gauge({ name, help, registers });
    this.gauges = {
      owed: gauge('search_outbox_pending_rows', 'changes not yet confirmed in the index (handed out or not)'),
      handed: gauge('search_outbox_handed_rows', 'changes handed to the queue and waiting for confirmation'),
      rejected: gauge('search_outbox_rejected_rows', 'documents the cluster refuses for their content'),
      lag: gauge(
        'search_outbox_lag_seconds',
        'age of the oldest change not yet confirmed in the index (0 when none)',
      ),
      drift: gauge('search_index_drift_items', 'items the last complete verification sweep found different'),
      lastSweep: gauge(
        'search_index_last_sweep_timestamp_seconds',
        'when the last complete verification sweep ended (Unix time; 0: none yet)',
      ),
      sweepProgress: gauge('search_index_sweep_progress_ratio', 'share of the current sweep done'),
      noeviction: gauge(
        'search_indexer_redis_noeviction',
        "1 when Redis's maxmemory-policy is noeviction (as BullMQ needs), 0 otherwise or unknown",
      ),
    };
  }

  /** Also collects the process' CPU, memory and event-loop figures (only the indexer process). */
  withProcessMetrics(): this {
    collectDefaultMetrics({ register: this.registry });
    return this;
  }

  count(what: CounterName, n: number): void {
    if (n <= 0) return;
    this.totals[what] += n;
    this.counters[what].inc(n);
  }

  setLedger(status: LedgerStatus): void {
    this.ledger = status;
    this.gauges.owed.set(status.owed);
    this.gauges.handed.set(status.handed);
    this.gauges.rejected.set(status.rejected);
    this.gauges.lag.set(status.oldestSeconds);
  }

  setSweep(status: SweepStatus): void {
    if (status.lastDrift !== null) this.gauges.drift.set(status.lastDrift);
    this.gauges.lastSweep.set(status.lastCompletedAt ? status.lastCompletedAt.getTime() / 1000 : 0);
    this.gauges.sweepProgress.set(status.progress);
  }

  setRedisNoEviction(ok: boolean): void {
    this.gauges.noeviction.set(ok ? 1 : 0);
  }

  async expose(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }

  /** Documents (indexed + deleted) per second since the previous call (the logging interval). */
  rate(now = Date.now()): number {
    const seconds = Math.max(0.001, (now - this.lastAt) / 1000);
    const done = this.totals.indexed + this.totals.deleted;
    const rate = (done - this.lastDone) / seconds;
    this.lastDone = done;
    this.lastAt = now;
    return Math.round(rate * 10) / 10;
  }
}
