import type { Client } from '@opensearch-project/opensearch';
import type { Database } from '../src/db/database.js';
import type { Logger } from '../src/logger.js';
import { readStockDocuments } from '../src/search/stock-documents.js';
import { writeBatch, type ItemResult } from './cluster.js';
import type { OwedChange } from './index-queue.js';
import type { IndexerMetrics } from './metrics.js';
import { confirmDelivered, recordRejected } from './outbox.js';

export interface DeliveryTarget {
  db: Database;
  client: Client;
  /** the alias the live index is behind */
  alias: string;
  metrics: IndexerMetrics;
  logger: Logger;
  /** seconds before a document the cluster refused for its content is tried again */
  rejectedRetrySeconds: number;
}

export interface DeliveryOutcome {
  /** items the index acknowledged at their current version or later (their rows settled) */
  acknowledged: number;
  rejected: ItemResult[];
  /** items refused for a passing cause: still owed, the caller tries again later */
  failed: ItemResult[];
}

/**
 * The one way a change reaches the index (the worker, and index:verify's repairs, go through it):
 * the items' current rows are read and written with their row version as the external version,
 * so whatever version a change named, today's data is what gets written and an older write can
 * never win; items without a row get a tombstone at the change's version. What the cluster
 * acknowledged is settled in the outbox, what it refused for its content is recorded there with
 * the reason; what failed for a passing cause stays owed and is returned.
 */
export async function deliverChanges(
  target: DeliveryTarget,
  changes: OwedChange[],
): Promise<DeliveryOutcome> {
  const { db, client, alias, metrics, logger } = target;
  const ids = [...new Set(changes.map((c) => c.itemId))];
  const documents = await readStockDocuments(db, ids);
  const present = new Set(documents.map((d) => d.id));
  const deletions = new Map<number, number>();
  for (const change of changes) {
    if (present.has(change.itemId)) continue;
    deletions.set(change.itemId, Math.max(change.version, deletions.get(change.itemId) ?? 0));
  }
  const outcome = await writeBatch(
    client,
    alias,
    { documents, deletions: [...deletions].map(([id, version]) => ({ id, version })) },
    true,
  );
  await confirmDelivered(db, outcome.acknowledged);
  await recordRejected(db, outcome.rejected, target.rejectedRetrySeconds);

  const deleted = outcome.acknowledged.filter((a) => a.deleted).length;
  metrics.count('indexed', outcome.acknowledged.length - deleted);
  metrics.count('deleted', deleted);
  metrics.count('stale', outcome.stale);
  metrics.count('rejected', outcome.rejected.length);
  metrics.count('failed', outcome.failed.length);
  for (const rejected of outcome.rejected.slice(0, 20)) {
    logger.error(
      { itemId: rejected.itemId, version: rejected.version, reason: rejected.reason },
      'the index refused a document for its content; it stays owed and is tried again later',
    );
  }
  if (outcome.rejected.length > 20) {
    logger.error(
      { more: outcome.rejected.length - 20 },
      'more documents refused (index:verify lists them all)',
    );
  }
  return { acknowledged: outcome.acknowledged.length, rejected: outcome.rejected, failed: outcome.failed };
}
