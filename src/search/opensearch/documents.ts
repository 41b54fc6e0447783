import type { Types } from '@opensearch-project/opensearch';
import type { Condition } from '../../db/schema.js';
import type { ItemReference, StockDocument, StockHit } from '../engine.js';
import { normalizeReference } from '../references.js';

/** A stock item as stored in the index (`mappings/stock.json`, snake_case like the tables). */
export interface StockSource {
  id: number;
  reference: string;
  references_norm: string[];
  xref_group_id: number | null;
  references: ItemReference[];
  xref_references: ItemReference[];
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
  country_code: string;
  vehicle_make: string | null;
  vehicle_model: string | null;
  vehicle_variant: string | null;
  quantity: number;
  updated_at: string;
}

export function toSource(d: StockDocument): StockSource {
  return {
    id: d.id,
    reference: d.reference,
    references_norm: d.referencesNorm,
    xref_group_id: d.xrefGroupId,
    references: d.references,
    xref_references: d.xrefReferences,
    title: d.title,
    description: d.description,
    part_id: d.partId,
    condition: d.condition,
    is_oem: d.isOem,
    is_aftermarket: d.isAftermarket,
    price: d.price,
    currency: d.currency,
    vendor_id: d.vendorId,
    vendor_name: d.vendorName,
    country_code: d.countryCode,
    vehicle_make: d.vehicleMake,
    vehicle_model: d.vehicleModel,
    vehicle_variant: d.vehicleVariant,
    quantity: d.quantity,
    updated_at: d.updatedAt,
  };
}

/** Which of the item's references the query's reference matched: own, associated, then group. */
function matchedReference(s: StockSource, queried: string | undefined): string | null {
  if (queried === undefined) return null;
  const norm = normalizeReference(queried);
  if (normalizeReference(s.reference) === norm) return s.reference;
  const hit = [...s.references, ...s.xref_references].find((r) => normalizeReference(r.reference) === norm);
  return hit?.reference ?? null;
}

export function toHit(s: StockSource, queriedReference: string | undefined): StockHit {
  return {
    id: s.id,
    reference: s.reference,
    references: s.references,
    matchedReference: matchedReference(s, queriedReference),
    title: s.title,
    description: s.description,
    partId: s.part_id,
    condition: s.condition,
    isOem: s.is_oem,
    isAftermarket: s.is_aftermarket,
    price: s.price,
    currency: s.currency,
    vendorId: s.vendor_id,
    vendorName: s.vendor_name,
    countryCode: s.country_code,
    vehicleMake: s.vehicle_make,
    vehicleModel: s.vehicle_model,
    vehicleVariant: s.vehicle_variant,
    quantity: s.quantity,
    updatedAt: s.updated_at,
  };
}

type BulkLine = Types.Core_Bulk.OperationContainer | StockSource;

/**
 * Bulk lines writing documents with the row's version as an external version: the cluster keeps
 * a document only when its version is higher than the stored one, so a late or repeated job can
 * never bring back older data.
 */
export function indexLines(index: string, documents: StockDocument[]): BulkLine[] {
  return documents.flatMap((d) => [
    { index: { _index: index, _id: String(d.id), version: d.version, version_type: 'external' as const } },
    toSource(d),
  ]);
}

/**
 * Deletions as external-version deletes: the cluster keeps the tombstone's version for a while
 * (index.gc_deletes), so an older index job arriving after the delete is refused.
 */
export function deleteLines(index: string, removed: { id: number; version: number }[]): BulkLine[] {
  return removed.map((r) => ({
    delete: { _index: index, _id: String(r.id), version: r.version, version_type: 'external' as const },
  }));
}
