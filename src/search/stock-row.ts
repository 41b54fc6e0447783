import { sql, type RawBuilder } from 'kysely';
import type { Condition } from '../db/schema.js';
import type { ItemReference, StockItem } from './engine.js';

/** A reference as read, with its normalized form (what a reference search matches). */
export interface ReferenceRow extends ItemReference {
  norm: string;
}

/**
 * A stock item as read from Postgres: by the Postgres engine for a page (through json_agg, which
 * writes bigint and numeric as numbers and timestamps as text) and by the indexer for its documents
 * (from the driver, which gives bigint and numeric as text and timestamps as Dates). toStockItem
 * reads both alike.
 */
export interface StockRow {
  id: number | string;
  reference: string;
  title: string;
  description: string;
  part_id: number | null;
  condition: Condition;
  is_oem: boolean;
  is_aftermarket: boolean;
  price: number | string;
  /** char(3): padded */
  currency: string;
  vendor_id: number | string;
  vendor_name: string;
  location_country_code: string;
  vehicle_make: string | null;
  vehicle_model: string | null;
  vehicle_variant: string | null;
  quantity: number;
  updated_at: string | Date;
  /** the associated references (not the item's own), in reference order */
  refs: ReferenceRow[];
}

/** The columns of a StockRow read from stock_items as they are. */
const ITEM_COLUMNS = [
  'id',
  'reference',
  'title',
  'description',
  'part_id',
  'condition',
  'is_oem',
  'is_aftermarket',
  'price',
  'currency',
  'vendor_id',
  'location_country_code',
  'vehicle_make',
  'vehicle_model',
  'vehicle_variant',
  'quantity',
  'updated_at',
] as const satisfies readonly (keyof StockRow)[];

/**
 * The references of one item (`stock_item_references` by `item_id`) or of one cross-reference group
 * (`xref_group_references` by `group_id`), as a JSON array of ReferenceRow in reference order.
 */
export const referenceRows = (
  table: 'stock_item_references' | 'xref_group_references',
  keyColumn: 'item_id' | 'group_id',
  key: RawBuilder<unknown>,
): RawBuilder<unknown> => sql`
  coalesce((select jsonb_agg(jsonb_build_object('reference', r.reference, 'kind', r.kind,
                                                'brand', r.brand, 'norm', r.reference_norm)
                             order by r.reference)
            from ${sql.table(table)} r where ${sql.ref(`r.${keyColumn}`)} = ${key}), '[]'::jsonb)`;

/** The select list of a StockRow, from stock_items aliased `item` joined to its vendor aliased `vendor`. */
export const stockRowColumns = (item: string, vendor: string): RawBuilder<unknown> => sql`
  ${sql.join(ITEM_COLUMNS.map((column) => sql.ref(`${item}.${column}`)))},
  ${sql.ref(`${vendor}.name`)} as vendor_name,
  ${referenceRows('stock_item_references', 'item_id', sql.ref(`${item}.id`))} as refs`;

/** A reference read as a ReferenceRow, without its normalized form. */
export const plainReference = ({ reference, kind, brand }: ItemReference): ItemReference => ({
  reference,
  kind,
  brand,
});

/** A stock row as the engine port's item. */
export function toStockItem(r: StockRow): StockItem {
  return {
    id: Number(r.id),
    reference: r.reference,
    references: r.refs.map(plainReference),
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
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}
