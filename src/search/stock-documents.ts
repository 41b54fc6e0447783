import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../db/database.js';
import type { Condition } from '../db/schema.js';
import type { ItemReference, StockDocument } from './engine.js';

interface DocumentRow {
  id: string;
  reference: string;
  reference_norm: string;
  xref_group_id: string | null;
  title: string;
  description: string;
  part_id: number | null;
  condition: Condition;
  is_oem: boolean;
  is_aftermarket: boolean;
  price: string;
  currency: string;
  vendor_id: string;
  vendor_name: string;
  location_country_code: string;
  vehicle_make: string | null;
  vehicle_model: string | null;
  vehicle_variant: string | null;
  quantity: number;
  updated_at: Date;
  version: string;
  refs: (ItemReference & { norm: string })[];
  xrefs: (ItemReference & { norm: string })[];
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
    select si.id, si.reference, si.reference_norm, si.xref_group_id, si.title, si.description, si.part_id,
           si.condition, si.is_oem, si.is_aftermarket, si.price, si.currency, si.vendor_id, v.name as vendor_name,
           si.location_country_code, si.vehicle_make, si.vehicle_model, si.vehicle_variant, si.quantity,
           si.updated_at, si.version,
           coalesce((select jsonb_agg(jsonb_build_object('reference', r.reference, 'kind', r.kind,
                                                         'brand', r.brand, 'norm', r.reference_norm)
                                      order by r.reference)
                       from stock_item_references r where r.item_id = si.id), '[]'::jsonb) as refs,
           coalesce((select jsonb_agg(jsonb_build_object('reference', g.reference, 'kind', g.kind,
                                                         'brand', g.brand, 'norm', g.reference_norm)
                                      order by g.reference)
                       from xref_group_references g where g.group_id = si.xref_group_id), '[]'::jsonb) as xrefs
    from stock_items si join vendors v on v.id = si.vendor_id
    where ${where}
    order by si.id
    ${limit === null ? sql`` : sql`limit ${limit}`}`.execute(db);
  return result.rows.map(toDocument);
}

const plain = ({ reference, kind, brand }: ItemReference): ItemReference => ({ reference, kind, brand });

function toDocument(r: DocumentRow): StockDocument {
  return {
    id: Number(r.id),
    reference: r.reference,
    referenceNorm: r.reference_norm,
    references: r.refs.map(plain),
    xrefReferences: r.xrefs.map(plain),
    referencesNorm: [
      ...new Set([r.reference_norm, ...r.refs.map((x) => x.norm), ...r.xrefs.map((x) => x.norm)]),
    ],
    xrefGroupId: r.xref_group_id === null ? null : Number(r.xref_group_id),
    title: r.title,
    description: r.description,
    partId: r.part_id,
    condition: r.condition,
    isOem: r.is_oem,
    isAftermarket: r.is_aftermarket,
    price: Number(r.price),
    currency: r.currency.trim(),
    vendorId: Number(r.vendor_id),
    vendorName: r.vendor_name,
    countryCode: r.location_country_code,
    vehicleMake: r.vehicle_make,
    vehicleModel: r.vehicle_model,
    vehicleVariant: r.vehicle_variant,
    quantity: r.quantity,
    updatedAt: r.updated_at.toISOString(),
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
