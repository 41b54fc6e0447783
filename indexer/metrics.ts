import { createServer, type Server } from 'node:http';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { OutboxLag } from './outbox.js';

type CounterName = 'indexed' | 'deleted' | 'stale' | 'failed' | 'enqueued';

const COUNTERS: Record<CounterName, { name: string; help: string }> = {
  indexed: { name: 'search_indexer_documents_indexed_total', help: 'documents written to the index' },
  deleted: { name: 'search_indexer_documents_deleted_total', help: 'tombstones written to the index' },
  stale: {
    name: 'search_indexer_stale_versions_total',
    help: 'writes refused because the index already held that or a newer version',
  },
  failed: { name: 'search_indexer_failures_total', help: 'documents the cluster refused (retried)' },
  enqueued: { name: 'search_indexer_jobs_enqueued_total', help: 'outbox rows relayed as jobs' },
};

/**
 * The figures an operator needs: documents indexed per second, failures and the outbox lag.
 * Kept as plain numbers (for the progress log lines) and as Prometheus metrics (prom-client) on
 * the indexer's /metrics endpoint, with the process' default metrics.
 */
export class IndexerMetrics {
  readonly registry = new Registry();
  indexed = 0;
  deleted = 0;
  stale = 0;
  failed = 0;
  enqueued = 0;
  outboxPending = 0;
  outboxLagSeconds = 0;
  private readonly counters: Record<CounterName, Counter>;
  private readonly pendingGauge: Gauge;
  private readonly lagGauge: Gauge;
  private lastDone = 0;
  private lastAt = Date.now();

  constructor() {
    const registers = [this.registry];
    this.counters = Object.fromEntries(
      Object.entries(COUNTERS).map(([key, c]) => [key, new Counter({ ...c, registers })]),
    ) as Record<CounterName, Counter>;
    this.pendingGauge = new Gauge({
      name: 'search_outbox_pending_rows',
      help: 'outbox rows not yet relayed to the queue',
      registers,
    });
    this.lagGauge = new Gauge({
      name: 'search_outbox_lag_seconds',
      help: 'age of the oldest pending outbox row (0 when none)',
      registers,
    });
  }

  /** Also collects the process' CPU, memory and event-loop figures (only the indexer process). */
  withProcessMetrics(): this {
    collectDefaultMetrics({ register: this.registry });
    return this;
  }

  count(what: CounterName, n: number): void {
    if (n <= 0) return;
    this[what] += n;
    this.counters[what].inc(n);
  }

  setOutboxLag(lag: OutboxLag): void {
    this.outboxPending = lag.pending;
    this.outboxLagSeconds = lag.oldestSeconds;
    this.pendingGauge.set(lag.pending);
    this.lagGauge.set(lag.oldestSeconds);
  }

  /** Documents (indexed + deleted) per second since the previous call (the logging interval). */
  rate(now = Date.now()): number {
    const seconds = Math.max(0.001, (now - this.lastAt) / 1000);
    const done = this.indexed + this.deleted;
    const rate = (done - this.lastDone) / seconds;
    this.lastDone = done;
    this.lastAt = now;
    return Math.round(rate * 10) / 10;
  }
}

/** GET /metrics in the Prometheus text format; port 0 picks a free one. */
export function serveMetrics(metrics: IndexerMetrics, port: number, host = '0.0.0.0'): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url !== '/metrics') return void res.writeHead(404).end();
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}
