import type { Client } from '@opensearch-project/opensearch';
import type { Database } from '../../src/db/database.js';
import {
  readItemStamps,
  readItemStampsOf,
  readRangeDigest,
  type ItemStamp,
} from '../../src/search/stock-documents.js';
import { databaseNow, inFlightAmong } from '../outbox.js';
import { readIndexStamps, readIndexStampsOf, stampsDigest } from './index-stamps.js';

/**
 * How a document differs from its row: `missing` (a row, no document), `extra` (a document, no
 * row), `version` (another version than the row's: older, or newer because something other than
 * the indexer wrote it), `content` (the row's version, other content).
 */
export type DifferenceKind = 'missing' | 'extra' | 'version' | 'content';

export interface Difference {
  itemId: number;
  kind: DifferenceKind;
  /** null for `extra` */
  rowVersion: number | null;
  /** null for `missing` */
  indexVersion: number | null;
}

export interface RangeCheck {
  /** items PostgreSQL holds in the range */
  rows: number;
  /** the digests differed, so the range was compared item by item */
  drilled: boolean;
  differences: Difference[];
  /** items that differ only because their change is on its way (owed, or confirmed while they were read) */
  inFlight: number;
}

function classify(itemId: number, row: ItemStamp | undefined, doc: ItemStamp | undefined): Difference | null {
  if (row && !doc) return { itemId, kind: 'missing', rowVersion: row.version, indexVersion: null };
  if (!row && doc) return { itemId, kind: 'extra', rowVersion: null, indexVersion: doc.version };
  if (!row || !doc) return null;
  if (row.version !== doc.version) {
    return { itemId, kind: 'version', rowVersion: row.version, indexVersion: doc.version };
  }
  if (row.contentHash !== doc.contentHash) {
    return { itemId, kind: 'content', rowVersion: row.version, indexVersion: doc.version };
  }
  return null;
}

/** Differences between two lists of stamps, item by item. */
export function compareStamps(rows: ItemStamp[], docs: ItemStamp[]): Difference[] {
  const rowsById = new Map(rows.map((r) => [r.id, r]));
  const docsById = new Map(docs.map((d) => [d.id, d]));
  const ids = [...new Set([...rowsById.keys(), ...docsById.keys()])].sort((a, b) => a - b);
  return ids.map((id) => classify(id, rowsById.get(id), docsById.get(id))).filter((d) => d !== null);
}

/**
 * Verifies the items with `lo < id <= hi` (hi null: no upper bound). PostgreSQL computes its
 * digest of the range (count and md5 of the stamps, stock-documents.ts); the index's is computed
 * from a scan of the same range (index-stamps.ts). Equal digests end it there. Otherwise the range
 * is compared item by item, and each difference is checked again against the index in real time
 * and the current row: a change written a moment ago but not yet refreshed into searches, one
 * still owed in the outbox (on its way, which the lag figures cover) or one delivered while the
 * check read, is not drift.
 */
export async function checkRange(
  db: Database,
  client: Client,
  alias: string,
  lo: number,
  hi: number | null,
): Promise<RangeCheck> {
  const [digest, docs] = await Promise.all([
    readRangeDigest(db, lo, hi),
    readIndexStamps(client, alias, lo, hi),
  ]);
  if (digest.count === docs.length && digest.digest === stampsDigest(docs)) {
    return { rows: digest.count, drilled: false, differences: [], inFlight: 0 };
  }
  const candidates = compareStamps(await readItemStamps(db, lo, hi), docs);
  const { differences, inFlight } = await confirmDifferences(
    db,
    client,
    alias,
    candidates.map((c) => c.itemId),
  );
  return { rows: digest.count, drilled: true, differences, inFlight };
}

/**
 * The differences among these items that hold now: the index read in real time, the rows read
 * after it. Items whose change is owed in the outbox, or was confirmed since just before the index
 * was read (delivered while it was being read, the row read after it already newer), are in flight
 * and set apart.
 */
export async function confirmDifferences(
  db: Database,
  client: Client,
  alias: string,
  itemIds: number[],
): Promise<{ differences: Difference[]; inFlight: number }> {
  if (itemIds.length === 0) return { differences: [], inFlight: 0 };
  const since = await databaseNow(db);
  const docs = await readIndexStampsOf(client, alias, itemIds);
  const rows = await readItemStampsOf(db, itemIds);
  // read after the rows, so that every change they show is in it (its outbox row commits with it)
  const inFlight = await inFlightAmong(db, itemIds, since);
  const found = compareStamps(rows, docs);
  // A change on its way settles a difference, except over a document whose version is above the
  // row's: the cluster refuses the write (409) as if it were newer, and only a repair replaces it.
  const settledByDelivery = (d: Difference) =>
    inFlight.has(d.itemId) &&
    !(d.rowVersion !== null && d.indexVersion !== null && d.indexVersion > d.rowVersion);
  return {
    differences: found.filter((d) => !settledByDelivery(d)),
    inFlight: found.filter(settledByDelivery).length,
  };
}
