import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../db/database.js';
import type { ListingLanguage } from './listing-language.js';
import type { StockDocument } from './engine.js';
import {
  plainReference,
  referenceRows,
  stockRowColumns,
  toStockItem,
  type ReferenceRow,
  type StockRow,
} from './stock-row.js';

/** A stock row with what only the index needs: the references to match, the version, the hash. */
interface DocumentRow extends StockRow {
  reference_norm: string;
  /** bigint, as text */
  xref_group_id: string | null;
  text_language: ListingLanguage | null;
  /** bigint, as text */
  version: string;
  /** the references of the item's cross-reference group */
  xrefs: ReferenceRow[];
  content_hash: string;
}

/**
 * Every stock item's document data matching `where`: the item, its vendor's name, its associated
 * references and its cross-reference group's references, and `content_hash`, the md5 of all of it.
 *
 * The hash is computed here, in SQL, and nowhere else: the indexer stores it in each document it
 * writes, and index:verify compares it with the same expression over the current rows, so a document
 * whose content no longer matches its row (a seller renamed without a new version, a document
 * overwritten by hand) shows up without reading documents back. The timestamp goes in as epoch
 * seconds so that the text, and the hash, do not depend on a session's TimeZone or DateStyle. The
 * listing's language (sql/0045) is appended only when known, so that the hash of an item without
 * one is what it was before items had a language, and an index of then is not all drift.
 *
 * The inner query ends in its own limit (a page in id order) or `offset 0`: either keeps the
 * planner from pulling it up into the outer one, which would evaluate both references subqueries
 * twice per row (once for the columns, once inside the md5).
 */
const documentRows = (where: RawBuilder<unknown>, limit: number | null = null): RawBuilder<unknown> => sql`
  select d.*, md5(row(d.reference, d.title, d.description, d.part_id, d.condition, d.is_oem,
                      d.is_aftermarket, d.price, d.currency, d.vendor_id, d.vendor_name,
                      d.location_country_code, d.vehicle_make, d.vehicle_model, d.vehicle_variant,
                      d.quantity, extract(epoch from d.updated_at), d.reference_norm, d.xref_group_id,
                      d.refs, d.xrefs)::text || coalesce(d.text_language, '')) as content_hash
  from (select ${stockRowColumns('si', 'v')}, si.reference_norm, si.xref_group_id, si.text_language, si.version,
               ${referenceRows('xref_group_references', 'group_id', sql`si.xref_group_id`)} as xrefs
        from stock_items si join vendors v on v.id = si.vendor_id
        where ${where}
        ${limit === null ? sql`offset 0` : sql`order by si.id limit ${limit}`}) d`;

async function read(
  db: Database,
  where: RawBuilder<unknown>,
  limit: number | null,
): Promise<StockDocument[]> {
  const result = await sql<DocumentRow>`${documentRows(where, limit)} order by d.id`.execute(db);
  return result.rows.map(toDocument);
}

function toDocument(r: DocumentRow): StockDocument {
  return Object.assign(toStockItem(r), {
    referenceNorm: r.reference_norm,
    xrefReferences: r.xrefs.map(plainReference),
    referencesNorm: [
      ...new Set([r.reference_norm, ...r.refs.map((x) => x.norm), ...r.xrefs.map((x) => x.norm)]),
    ],
    xrefGroupId: r.xref_group_id === null ? null : Number(r.xref_group_id),
    textLanguage: r.text_language,
    version: Number(r.version),
    contentHash: r.content_hash,
  });
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

/** An item as the index should hold it: its id, its row version and its content hash. */
export interface ItemStamp {
  id: number;
  version: number;
  contentHash: string;
}

/** The stamps of the items with `lo < id <= hi` (hi null: no upper bound), in id order. */
export async function readItemStamps(db: Database, lo: number, hi: number | null): Promise<ItemStamp[]> {
  const where = hi === null ? sql`si.id > ${lo}` : sql`si.id > ${lo} and si.id <= ${hi}`;
  const result = await sql<{ id: string; version: string; content_hash: string }>`
    select d.id, d.version, d.content_hash from (${documentRows(where)}) d order by d.id`.execute(db);
  return result.rows.map((r) => ({
    id: Number(r.id),
    version: Number(r.version),
    contentHash: r.content_hash,
  }));
}

/** The stamps of these items (ids without a row are absent). */
export async function readItemStampsOf(db: Database, ids: number[]): Promise<ItemStamp[]> {
  if (ids.length === 0) return [];
  const result = await sql<{ id: string; version: string; content_hash: string }>`
    select d.id, d.version, d.content_hash
    from (${documentRows(sql`si.id = any(${ids.map(String)}::bigint[])`)}) d order by d.id`.execute(db);
  return result.rows.map((r) => ({
    id: Number(r.id),
    version: Number(r.version),
    contentHash: r.content_hash,
  }));
}

/**
 * The digest of the items with `lo < id <= hi` (hi null: no upper bound): how many, and the md5 of
 * their stamps as `id:version:content_hash` joined by commas in id order — what index:verify
 * computes from the index's side of the same range (indexer/verify/index-stamps.ts).
 */
export async function readRangeDigest(
  db: Database,
  lo: number,
  hi: number | null,
): Promise<{ count: number; digest: string }> {
  const where = hi === null ? sql`si.id > ${lo}` : sql`si.id > ${lo} and si.id <= ${hi}`;
  const result = await sql<{ count: string; digest: string }>`
    select count(*) as count,
           md5(coalesce(string_agg(d.id || ':' || d.version || ':' || d.content_hash, ',' order by d.id), '')) as digest
    from (${documentRows(where)}) d`.execute(db);
  const row = result.rows[0]!;
  return { count: Number(row.count), digest: row.digest };
}

/** The id that ends the range of `size` items after `afterId`; null when fewer are left (the last range). */
export async function rangeEnd(db: Database, afterId: number, size: number): Promise<number | null> {
  const result = await sql<{ id: string }>`
    select id from stock_items where id > ${afterId} order by id offset ${size - 1} limit 1`.execute(db);
  return result.rows[0] ? Number(result.rows[0].id) : null;
}
