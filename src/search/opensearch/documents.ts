import type { Types } from '@opensearch-project/opensearch';
import type { ItemReference, ReferenceQuery, StockDocument, StockHit, StockItem } from '../engine.js';
import { LISTING_LANGUAGES, type ListingLanguage } from '../listing-language.js';
import { toCents } from '../price-math.js';
import { normalizeReference } from '../references.js';

/**
 * The index's name of each field of a stock item (mappings/stock.json): the stock_items column
 * names, but country_code. Documents are written and hits read back through this one table.
 */
const SOURCE_FIELDS = {
  id: 'id',
  reference: 'reference',
  references: 'references',
  title: 'title',
  description: 'description',
  partId: 'part_id',
  condition: 'condition',
  isOem: 'is_oem',
  isAftermarket: 'is_aftermarket',
  price: 'price',
  currency: 'currency',
  vendorId: 'vendor_id',
  vendorName: 'vendor_name',
  countryCode: 'country_code',
  vehicleMake: 'vehicle_make',
  vehicleModel: 'vehicle_model',
  vehicleVariant: 'vehicle_variant',
  quantity: 'quantity',
  updatedAt: 'updated_at',
} as const satisfies Record<keyof StockItem, string>;

type ItemSource = { [K in keyof StockItem as (typeof SOURCE_FIELDS)[K]]: StockItem[K] };

const ITEM_FIELDS = Object.keys(SOURCE_FIELDS) as (keyof StockItem)[];

/** A stock item as stored in the index: the item's fields, and what a reference search matches. */
export interface StockSource extends ItemSource {
  /** normalized references: own + associated + cross-reference group */
  references_norm: string[];
  xref_group_id: number | null;
  /** the references of the item's cross-reference group (to name the matched one) */
  xref_references: ItemReference[];
  /**
   * the price in whole cents (mapping 5): what the statistics aggregate, so that sums, and the
   * averages divided from them, are exact (sums of `price`'s doubles are not)
   */
  price_cents: number;
  /** what index:verify compares with the row (StockDocument.contentHash) */
  content_hash: string;
  /**
   * the title and description again, under the listing's language (mapping 9), or under each of
   * the six when it is not known: analysed there, never stored (`_source.excludes`)
   */
  text_lang?: Partial<Record<ListingLanguage, string[]>>;
}

/** The text of an item under the languages it is analysed in (StockSource.text_lang). */
function textByLanguage(d: StockDocument): Partial<Record<ListingLanguage, string[]>> {
  const text = d.description ? [d.title, d.description] : [d.title];
  if (d.textLanguage !== null) return { [d.textLanguage]: text };
  return Object.fromEntries(LISTING_LANGUAGES.map((language) => [language, text]));
}

/**
 * The document of an item. Its fields are written out rather than copied through SOURCE_FIELDS: a
 * rebuild makes millions of them, and an object literal of one fixed shape is what the runtime
 * builds and serializes fastest. The types hold it to the table (ItemSource is made from it), and
 * toHit(toSource(d)) giving d's item back is tested.
 */
export function toSource(d: StockDocument): StockSource {
  return {
    id: d.id,
    reference: d.reference,
    references: d.references,
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
    references_norm: d.referencesNorm,
    xref_group_id: d.xrefGroupId,
    xref_references: d.xrefReferences,
    price_cents: toCents(d.price),
    content_hash: d.contentHash,
    text_lang: textByLanguage(d),
  };
}

/** Which of the item's references the query's reference matched: own, associated, then group. */
function matchedReference(s: StockSource, queried: ReferenceQuery | undefined): string | null {
  if (queried === undefined) return null;
  const norm = queried.normalized;
  if (normalizeReference(s.reference) === norm) return s.reference;
  const hit = [...s.references, ...s.xref_references].find((r) => normalizeReference(r.reference) === norm);
  return hit?.reference ?? null;
}

export function toHit(s: StockSource, queriedReference: ReferenceQuery | undefined): StockHit {
  const item: Record<string, unknown> = {};
  for (const field of ITEM_FIELDS) item[field] = s[SOURCE_FIELDS[field]];
  return { ...(item as unknown as StockItem), matchedReference: matchedReference(s, queriedReference) };
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
