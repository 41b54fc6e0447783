import { createServer, type Server } from 'node:http';

/** Counters the operator needs; exposed as log lines and as Prometheus text on /metrics. */
export class IndexerMetrics {
  indexed = 0;
  deleted = 0;
  stale = 0;
  failed = 0;
  enqueued = 0;
  outboxPending = 0;
  outboxLagSeconds = 0;
  private lastIndexed = 0;
  private lastAt = Date.now();

  /** Documents per second since the previous call (the logging interval). */
  rate(now = Date.now()): number {
    const seconds = Math.max(0.001, (now - this.lastAt) / 1000);
    const done = this.indexed + this.deleted;
    const rate = (done - this.lastIndexed) / seconds;
    this.lastIndexed = done;
    this.lastAt = now;
    return Math.round(rate * 10) / 10;
  }

  prometheus(): string {
    const lines: [string, string, number][] = [
      ['search_indexer_documents_indexed_total', 'counter', this.indexed],
      ['search_indexer_documents_deleted_total', 'counter', this.deleted],
      ['search_indexer_stale_versions_total', 'counter', this.stale],
      ['search_indexer_failures_total', 'counter', this.failed],
      ['search_indexer_jobs_enqueued_total', 'counter', this.enqueued],
      ['search_outbox_pending_rows', 'gauge', this.outboxPending],
      ['search_outbox_lag_seconds', 'gauge', this.outboxLagSeconds],
    ];
    return lines.map(([name, type, value]) => `# TYPE ${name} ${type}\n${name} ${value}\n`).join('');
  }
}

/** A tiny /metrics endpoint (no extra dependency); port 0 picks a free one. */
export function serveMetrics(metrics: IndexerMetrics, port: number, host = '0.0.0.0'): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url === '/metrics') {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(metrics.prometheus());
    } else res.writeHead(404).end();
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}
