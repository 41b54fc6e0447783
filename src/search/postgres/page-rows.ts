import { sql } from 'kysely';
import type { Condition } from '../../db/schema.js';
import type { ItemReference, PageRequest, StockHit, StockQuery } from '../engine.js';
import { normalizeReference } from '../references.js';
import type { Fragment } from './sql-fragments.js';

/** A page's rows: which ids, in which order, and each as the engine port's hit. */

/** Relevance for text (0 otherwise), then price; the id breaks ties so pages never overlap. */
export const PAGE_ORDER = sql`order by x.rank desc, x.price asc, x.id asc`;

/**
 * The page's ids and ranks, cut from `rows` in page order. Only the keys, so a covering index can
 * answer the search without the table; the page's 20-odd rows are read by primary key after.
 */
export const orderedKeys = (rows: Fragment, page: PageRequest): Fragment => sql`
  select m.id, m.rank
  from ${rows} m
  order by m.rank desc, m.price asc, m.id asc
  limit ${page.perPage} offset ${(page.page - 1) * page.perPage}`;

/** For the page's keys (see orderedKeys), the rows with the vendor, associated and matched references. */
export function pageQuery(query: StockQuery, keys: Fragment): Fragment {
  const ref = query.reference !== undefined ? normalizeReference(query.reference) : null;
  const matched =
    ref === null
      ? sql`null::text`
      : sql`case when p.reference_norm = ${ref} then p.reference else coalesce(
          (select r.reference from stock_item_references r where r.item_id = p.id and r.reference_norm = ${ref} limit 1),
          (select g.reference from xref_group_references g where g.group_id = p.xref_group_id and g.reference_norm = ${ref} limit 1)
        ) end`;
  return sql`
    select p.id, p.reference, ${matched} as matched, p.title, p.description, p.part_id, p.condition,
           p.is_oem, p.is_aftermarket, p.price, p.currency, p.vendor_id, v.name as vendor_name,
           p.location_country_code, p.vehicle_make, p.vehicle_model, p.vehicle_variant, p.quantity,
           p.updated_at, p.rank,
           coalesce((select jsonb_agg(jsonb_build_object('reference', r.reference, 'kind', r.kind, 'brand', r.brand)
                                      order by r.reference)
                       from stock_item_references r where r.item_id = p.id), '[]'::jsonb) as refs
    from (${keys}) k
    join lateral (
      select si.id, si.reference, si.reference_norm, si.xref_group_id, si.title, si.description, si.part_id,
             si.condition, si.is_oem, si.is_aftermarket, si.price, si.currency, si.vendor_id,
             si.location_country_code, si.vehicle_make, si.vehicle_model, si.vehicle_variant, si.quantity,
             si.updated_at, k.rank
      from stock_items si where si.id = k.id
    ) p on true
    join vendors v on v.id = p.vendor_id`;
}

/** A page row (decoded from JSON: numbers as numbers, the timestamp as text) as the engine port's hit. */
export function toHit(r: HitRow): StockHit {
  return {
    id: Number(r.id),
    reference: r.reference,
    references: r.refs,
    matchedReference: r.matched,
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

/** A page row as json_agg writes it. */
export interface HitRow {
  id: number;
  reference: string;
  matched: string | null;
  title: string;
  description: string;
  part_id: number | null;
  condition: Condition;
  is_oem: boolean;
  is_aftermarket: boolean;
  price: number;
  currency: string;
  vendor_id: number;
  vendor_name: string;
  location_country_code: string;
  vehicle_make: string | null;
  vehicle_model: string | null;
  vehicle_variant: string | null;
  quantity: number;
  updated_at: string;
  refs: ItemReference[];
}
