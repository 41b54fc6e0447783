import type { Client } from '@opensearch-project/opensearch';
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { rangeEnd } from '../../src/search/stock-documents.js';
import { checkRange, type Difference, type DifferenceKind } from './range-check.js';
import { readUnrangedIds } from './index-stamps.js';

export const DEFAULT_RANGE_SIZE = 5_000;

/** How many ids of each kind a report names. */
const NAMED_PER_KIND = 10;

export interface VerifyReport {
  /** items in PostgreSQL */
  rows: number;
  ranges: number;
  /** ranges whose digests differed (compared item by item) */
  rangesDrilled: number;
  /** differences per kind, and the first ids of each */
  counts: Record<DifferenceKind, number>;
  firstIds: Record<DifferenceKind, number[]>;
  /** items that differ only because their change is on its way (owed, or confirmed while they were read) */
  inFlight: number;
  /** documents without a numeric id field (written by hand): the range scans cannot see them */
  unranged: string[];
  seconds: number;
}

export interface VerifyOptions {
  rangeSize?: number;
  /** told after each range: ranges done, and the estimate of all */
  onProgress?: (done: number, estimate: number) => void;
  /** told the differences of each range as they are found (a repair acts on them at once) */
  onDifferences?: (differences: Difference[]) => Promise<void>;
}

export const differenceCount = (report: VerifyReport): number =>
  Object.values(report.counts).reduce((a, b) => a + b, 0) + report.unranged.length;

/**
 * Compares every item in PostgreSQL with the live index, range by range (range-check.ts): the
 * ranges of `rangeSize` items in id order, the last one open-ended so documents above the highest
 * id are seen too, then a look for documents no range can see.
 */
export async function verifyIndex(
  db: Database,
  client: Client,
  alias: string,
  options: VerifyOptions = {},
): Promise<VerifyReport> {
  const started = Date.now();
  const rangeSize = options.rangeSize ?? DEFAULT_RANGE_SIZE;
  const total = Number(
    (await sql<{ n: string }>`select count(*) as n from stock_items`.execute(db)).rows[0]!.n,
  );
  const estimate = Math.max(1, Math.ceil(total / rangeSize));
  const report: VerifyReport = {
    rows: 0,
    ranges: 0,
    rangesDrilled: 0,
    counts: { missing: 0, extra: 0, version: 0, content: 0 },
    firstIds: { missing: [], extra: [], version: [], content: [] },
    inFlight: 0,
    unranged: [],
    seconds: 0,
  };
  let lo = 0;
  for (;;) {
    const hi = await rangeEnd(db, lo, rangeSize);
    const check = await checkRange(db, client, alias, lo, hi);
    report.rows += check.rows;
    report.ranges += 1;
    if (check.drilled) report.rangesDrilled += 1;
    report.inFlight += check.inFlight;
    for (const d of check.differences) {
      report.counts[d.kind] += 1;
      if (report.firstIds[d.kind].length < NAMED_PER_KIND) report.firstIds[d.kind].push(d.itemId);
    }
    if (check.differences.length) await options.onDifferences?.(check.differences);
    options.onProgress?.(report.ranges, Math.max(estimate, report.ranges));
    if (hi === null) break;
    lo = hi;
  }
  report.unranged = await readUnrangedIds(client, alias, NAMED_PER_KIND);
  report.seconds = (Date.now() - started) / 1000;
  return report;
}
