import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';
import type { Logger } from '../../src/logger.js';
import { deliverChanges, type DeliveryTarget } from '../delivery.js';
import type { IndexerMetrics } from '../metrics.js';
import type { OwedChange } from '../index-queue.js';
import type { Difference } from './range-check.js';

/**
 * Versions are drawn from one sequence (sql/0021); a document written by hand can carry a version
 * above anything it ever gave. Up to this bound the sequence is moved past it; beyond it (a
 * version no ordinary history reaches) only a rebuild gives a clean index.
 */
export const MAX_REPAIRABLE_VERSION = 2 ** 52;

export class RepairNeedsRebuildError extends Error {
  constructor(readonly itemIds: number[]) {
    super(
      `documents carry versions above ${MAX_REPAIRABLE_VERSION} (items ${itemIds.slice(0, 10).join(', ')}): only a rebuild (npm run reindex) can replace them`,
    );
    this.name = 'RepairNeedsRebuildError';
  }
}

/**
 * Makes every differing item owed again at a fresh version, so that it is written through the
 * ordinary path (the relay and the worker, or `deliverOwed` at once) and a concurrent change still
 * wins: it draws a later version still. An item with a row gets a new version (its content and its
 * updated_at unchanged, sql/0031); a document without a row gets a tombstone. A version the index
 * holds is never above the new one: the sequence is first moved past the highest such version
 * (with stock writes held for that instant, so no version drawn meanwhile is left behind).
 * Returns the changes now owed.
 */
export async function markForRepair(db: Database, differences: Difference[]): Promise<OwedChange[]> {
  if (differences.length === 0) return [];
  const tooHigh = differences.filter((d) => (d.indexVersion ?? 0) >= MAX_REPAIRABLE_VERSION);
  if (tooHigh.length) throw new RepairNeedsRebuildError(tooHigh.map((d) => d.itemId));
  const highest = Math.max(0, ...differences.map((d) => d.indexVersion ?? 0));
  await moveVersionsPast(db, highest);
  const withRow = differences.filter((d) => d.kind !== 'extra').map((d) => String(d.itemId));
  const withoutRow = differences.filter((d) => d.kind === 'extra').map((d) => String(d.itemId));
  return db.transaction().execute(async (trx) => {
    await sql`select set_config('search_index.repairing', 'on', true)`.execute(trx);
    const touched = await sql<{ id: string; version: string }>`
      update stock_items set version = version where id = any(${withRow}::bigint[])
      returning id, version`.execute(trx);
    // A document whose row is gone gets a tombstone; one whose row came back meanwhile is left to
    // that insert's own change.
    const gone = await sql<{ id: string }>`
      select g.id from unnest(${withoutRow}::bigint[]) as g(id)
       where not exists (select 1 from stock_items si where si.id = g.id)`.execute(trx);
    const goneIds = gone.rows.map((r) => r.id);
    await sql`select search_outbox_record(g.id, nextval('stock_item_version_seq'), true)
                from unnest(${goneIds}::bigint[]) as g(id)`.execute(trx);
    const tombstones = await sql<{ id: string; version: string }>`
      select item_id as id, version from search_outbox
       where done_at is null and item_id = any(${goneIds}::bigint[])`.execute(trx);
    return [
      ...touched.rows.map((r) => ({ itemId: Number(r.id), version: Number(r.version), deleted: false })),
      ...tombstones.rows.map((r) => ({ itemId: Number(r.id), version: Number(r.version), deleted: true })),
    ];
  });
}

/** Moves the version sequence past `version` when it is not already (rare: a hand-written document). */
async function moveVersionsPast(db: Database, version: number): Promise<void> {
  const current = await sql<{ last: string }>`select last_value as last from stock_item_version_seq`.execute(
    db,
  );
  if (Number(current.rows[0]!.last) > version) return;
  await db.transaction().execute(async (trx) => {
    // Every version is drawn by a write to stock_items (its default, its triggers): holding them
    // off for this instant means no version drawn before the move can be left above it.
    await sql`lock table stock_items in share row exclusive mode`.execute(trx);
    await sql`select setval('stock_item_version_seq', ${version})
               where ${version} >= (select last_value from stock_item_version_seq)`.execute(trx);
  });
}

/**
 * Writes these owed changes now, through the worker's own path (index:verify --repair does not
 * wait for an indexer process). Changes refused for a passing cause stay owed for the indexer.
 */
export async function deliverOwed(target: DeliveryTarget, changes: OwedChange[], batchSize = 1_000) {
  let acknowledged = 0;
  let failed = 0;
  let rejected = 0;
  for (let i = 0; i < changes.length; i += batchSize) {
    const outcome = await deliverChanges(target, changes.slice(i, i + batchSize));
    acknowledged += outcome.acknowledged;
    failed += outcome.failed.length;
    rejected += outcome.rejected.length;
  }
  return { acknowledged, failed, rejected };
}

/**
 * What the indexer does with differences it found (its sweep, its check after a rebuild): each one
 * logged, then all made owed again for its own relay and worker to write.
 */
export async function repairInBackground(
  db: Database,
  metrics: IndexerMetrics,
  logger: Logger,
  differences: Difference[],
  foundBy: string,
): Promise<void> {
  for (const d of differences) {
    logger.warn(
      { itemId: d.itemId, kind: d.kind, rowVersion: d.rowVersion, indexVersion: d.indexVersion, foundBy },
      'the index differed from PostgreSQL; the item is written again',
    );
  }
  await markForRepair(db, differences);
  metrics.count('repaired', differences.length);
}
