import { sql } from 'kysely';
import type { Database } from '../db/database.js';
import type {
  DemoDataset,
  StockItemReferenceRow,
  StockItemRow,
  XrefGroupReferenceRow,
  XrefGroupRow,
} from './generator.js';
import {
  AFTER_LOAD_SQL,
  ANALYZE_SQL,
  emptySummary,
  PHASE,
  type LoadProgress,
  type LoadSummary,
} from './load-phases.js';

export interface InsertLoadOptions {
  /** stock items per INSERT (their references go in a second INSERT of the same transaction) */
  batchSize?: number;
  onProgress?: LoadProgress;
}

/**
 * Tuned on PGlite with the 50,000-item demo: larger batches stop paying off around a thousand
 * rows, and stock_items' 17 columns keep 1,000 rows well under Postgres' 65,535 parameters.
 */
export const DEFAULT_INSERT_BATCH = 1_000;

async function* batches<T>(rows: Iterable<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for (const row of rows) {
    batch.push(row);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/**
 * Loads a dataset with multi-row INSERTs, each batch in its own transaction. This is the loader
 * for embedded PGlite (no COPY FROM STDIN through its client); it works on PostgreSQL too.
 */
export async function loadWithInserts(
  db: Database,
  dataset: DemoDataset,
  options: InsertLoadOptions = {},
): Promise<LoadSummary> {
  const size = options.batchSize ?? DEFAULT_INSERT_BATCH;
  const progress = options.onProgress ?? (() => {});
  const started = performance.now();
  const summary = emptySummary();

  const vendorTotal = dataset.options.vendors;
  progress(PHASE.vendors, 0, vendorTotal);
  for await (const rows of batches(dataset.vendors(), size)) {
    await db.insertInto('vendors').values(rows).execute();
    summary.vendors += rows.length;
    progress(PHASE.vendors, summary.vendors, vendorTotal);
  }

  // Groups are counted against products: how many of them have a group is known only at the end.
  progress(PHASE.groups, 0, dataset.products);
  for await (const chunk of batches(dataset.xrefGroups(), size)) {
    const groups: XrefGroupRow[] = chunk.map((g) => g.group);
    const references: XrefGroupReferenceRow[] = chunk.flatMap((g) => g.references);
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('xref_groups').values(groups).execute();
      await trx.insertInto('xref_group_references').values(references).execute();
    });
    summary.xrefGroups += groups.length;
    summary.xrefGroupReferences += references.length;
    progress(PHASE.groups, chunk[chunk.length - 1]!.product + 1, dataset.products);
  }
  progress(PHASE.groups, dataset.products, dataset.products);

  const itemTotal = dataset.options.items;
  progress(PHASE.items, 0, itemTotal);
  for await (const chunk of batches(dataset.items(), size)) {
    const items: StockItemRow[] = chunk.map((i) => i.item);
    const references: StockItemReferenceRow[] = chunk.flatMap((i) => i.references);
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('stock_items').values(items).execute();
      if (references.length) await trx.insertInto('stock_item_references').values(references).execute();
    });
    summary.items += items.length;
    summary.itemReferences += references.length;
    progress(PHASE.items, summary.items, itemTotal);
  }

  for (const statement of [...AFTER_LOAD_SQL, ANALYZE_SQL]) await sql.raw(statement).execute(db);
  summary.seconds = (performance.now() - started) / 1000;
  return summary;
}
