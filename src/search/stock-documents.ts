import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../db/database.js';
import type { StockDocument } from './engine.js';
import {
  plainReference,
  referenceRows,
  stockRowColumns,
  toStockItem,
  type ReferenceRow,
  type StockRow,
} from './stock-row.js';

/** A stock row with what only the index needs: the references to match and the row version. */
interface DocumentRow extends StockRow {
  reference_norm: string;
  /** bigint, as text */
  xref_group_id: string | null;
  /** bigint, as text */
  version: string;
  /** the references of the item's cross-reference group */
  xrefs: ReferenceRow[];
}

/**
 * Full documents for the rows matching `where`, in id order: the item, its vendor's name, its
 * associated references and its cross-reference group's references, in one query.
 */
async function read(
  db: Database,
  where: RawBuilder<unknown>,
  limit: number | null,
): Promise<StockDocument[]> {
  const result = await sql<DocumentRow>`
    select ${stockRowColumns('si', 'v')}, si.reference_norm, si.xref_group_id, si.version,
           ${referenceRows('xref_group_references', 'group_id', sql`si.xref_group_id`)} as xrefs
    from stock_items si join vendors v on v.id = si.vendor_id
    where ${where}
    order by si.id
    ${limit === null ? sql`` : sql`limit ${limit}`}`.execute(db);
  return result.rows.map(toDocument);
}

function toDocument(r: DocumentRow): StockDocument {
  return {
    ...toStockItem(r),
    referenceNorm: r.reference_norm,
    xrefReferences: r.xrefs.map(plainReference),
    referencesNorm: [
      ...new Set([r.reference_norm, ...r.refs.map((x) => x.norm), ...r.xrefs.map((x) => x.norm)]),
    ],
    xrefGroupId: r.xref_group_id === null ? null : Number(r.xref_group_id),
    version: Number(r.version),
  };
}

/** The current documents of these items; ids without a row (deleted) are simply absent. */
export function readStockDocuments(db: Database, ids: number[]): Promise<StockDocument[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return read(db, sql`si.id = any(${ids.map(String)}::bigint[])`, null);
}

/** One page of the whole stock in id order, after `afterId` (keyset pagination, for a reindex). */
export function readStockDocumentsAfter(
  db: Database,
  afterId: number,
  limit: number,
): Promise<StockDocument[]> {
  return read(db, sql`si.id > ${afterId}`, limit);
}
