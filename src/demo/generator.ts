import type { Condition, ReferenceKind } from '../db/schema.js';
import { normalizeReference } from '../search/references.js';
import { demoParts, type CatalogPartLike, type DemoPart } from './demo-parts.js';
import { listingDescription, sideWord } from './listing-texts.js';
import type { DemoLang } from './part-kinds.js';
import { Random, Weighted } from '../seeded-random.js';
import { fillPattern, oemReference } from './reference-patterns.js';
import { COUNTRIES, type DemoCountry } from './vendor-names.js';
import { seededStockMakes, type StockMake, type StockModel } from './stock-vehicles.js';

/** Rows as the loaders write them: column name -> value. Generated columns are left to Postgres. */
export interface VendorRow {
  id: number;
  name: string;
  country_code: string;
  city: string;
  rating: string;
}

export interface XrefGroupRow {
  id: number;
  label: string;
}

export interface XrefGroupReferenceRow {
  group_id: number;
  reference: string;
  brand: string;
  kind: ReferenceKind;
}

export interface StockItemRow {
  id: number;
  vendor_id: number;
  reference: string;
  xref_group_id: number | null;
  part_id: number | null;
  title: string;
  description: string;
  condition: Condition;
  is_oem: boolean;
  is_aftermarket: boolean;
  price: string;
  currency: string;
  quantity: number;
  vehicle_make: string;
  vehicle_model: string;
  vehicle_variant: string | null;
  location_country_code: string;
  /** the language the listing is written in (known here: the generator chose it) */
  text_language: DemoLang;
}

export interface StockItemReferenceRow {
  item_id: number;
  reference: string;
  kind: ReferenceKind;
  brand: string;
}

export interface DatasetOptions {
  seed: number;
  items: number;
  vendors: number;
  /** catalog parts to draw part ids and titles from; without them, the built-in part kinds */
  catalog?: readonly CatalogPartLike[];
  /** ids already taken: generated ids start after them (appending to a loaded database) */
  after?: { vendor: number; group: number; item: number };
}

/** Average number of offers per distinct product (part + vehicle + OEM number). */
const ITEMS_PER_PRODUCT = 4;
/** Popularity skew of products and sellers: a few hot ones, a long tail. */
const PRODUCT_SKEW = 1.6;
const VENDOR_SKEW = 1.4;

/** Independent random streams, so adding a field to one table does not reshuffle the others. */
const STREAM = { vendor: 1, product: 2, item: 3 } as const;

/** Price of a condition relative to a new part. */
const CONDITION_FACTOR: Record<Condition, number> = {
  novo: 1,
  recondicionado: 0.7,
  usado_bom: 0.5,
  usado_aceitavel: 0.36,
  para_pecas: 0.18,
};

const USED_CONDITIONS = new Weighted<Condition>([
  ['usado_bom', 50],
  ['usado_aceitavel', 25],
  ['recondicionado', 17],
  ['para_pecas', 8],
]);

interface Equivalent {
  reference: string;
  brand: string;
}

/** One thing sellers offer: a part for a vehicle model under one OEM number and its equivalents. */
interface Product {
  part: DemoPart;
  make: StockMake;
  model: StockModel;
  oem: string;
  /** a superseded or alternative OEM number, listed as associated reference */
  oemAlternative: string | null;
  side: 'left' | 'right' | null;
  equivalents: Equivalent[];
  /** the base price offers of this product scatter around */
  basePrice: number;
  groupId: number | null;
}

interface VendorFacts {
  id: number;
  country: DemoCountry;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * A deterministic demo dataset: the same options always give the same rows. Rows are computed on
 * demand from their index, so every table is a stream and nothing but the vendor list is held.
 */
export class DemoDataset {
  readonly products: number;
  private readonly parts: Weighted<DemoPart>;
  /** the vehicle catalog's makes, models and variants: an item names only what the catalog lists */
  private readonly makes = new Weighted(seededStockMakes().map((make) => [make, make.weight] as const));
  private readonly countries = new Weighted(COUNTRIES.map((country) => [country, country.weight] as const));
  private readonly vendorFacts: VendorFacts[];
  private readonly after: { vendor: number; group: number; item: number };

  constructor(readonly options: DatasetOptions) {
    if (options.vendors < 1) throw new Error('the dataset needs at least one vendor');
    this.products = Math.max(1, Math.ceil(options.items / ITEMS_PER_PRODUCT));
    this.parts = demoParts(options.catalog);
    this.after = options.after ?? { vendor: 0, group: 0, item: 0 };
    this.vendorFacts = [];
    for (let v = 0; v < options.vendors; v++) {
      const random = Random.forRow(options.seed, STREAM.vendor, v);
      this.vendorFacts.push({ id: this.after.vendor + v + 1, country: this.countries.pick(random) });
    }
  }

  get seed(): number {
    return this.options.seed;
  }

  *vendors(): Generator<VendorRow> {
    for (let v = 0; v < this.options.vendors; v++) {
      const random = Random.forRow(this.seed, STREAM.vendor, v);
      const country = this.countries.pick(random); // same first draw as in the constructor
      const city = random.pick(country.cities);
      const name = random
        .pick(country.templates)
        .replace(/\{s\}/g, () => random.pick(country.surnames))
        .replace(/\{c\}/g, city);
      yield {
        id: this.after.vendor + v + 1,
        name,
        country_code: country.code,
        city,
        rating: (random.int(25, 50) / 10).toFixed(1),
      };
    }
  }

  private product(index: number): Product {
    const random = Random.forRow(this.seed, STREAM.product, index);
    const part = this.parts.pick(random);
    const make = this.makes.pick(random);
    const model = make.models.pick(random);
    const context = {
      platforms: model.platforms.length ? model.platforms : ['000'],
      vagGroup: part.kind.vagGroup || random.int(100, 999),
    };
    const oem = oemReference(make.format, context, random);
    const seen = new Set([normalizeReference(oem)]);
    let oemAlternative: string | null = null;
    if (random.chance(0.15)) {
      const alternative = oemReference(make.format, context, random);
      if (!seen.has(normalizeReference(alternative))) {
        oemAlternative = alternative;
        seen.add(normalizeReference(alternative));
      }
    }
    const equivalents: Equivalent[] = [];
    const brands = part.kind.brands;
    if (brands.length) {
      for (const brand of random.sample(brands, random.int(1, Math.min(4, brands.length)))) {
        const reference = fillPattern(random.pick(brand.patterns), random);
        if (seen.has(normalizeReference(reference))) continue;
        seen.add(normalizeReference(reference));
        equivalents.push({ reference, brand: brand.brand });
      }
    }
    const hasGroup = equivalents.length > 0 && random.chance(0.7);
    return {
      part,
      make,
      model,
      oem,
      oemAlternative,
      side: part.sided ? random.pick(['left', 'right'] as const) : null,
      equivalents,
      basePrice: random.logNormal(part.kind.median, part.kind.sigma),
      groupId: hasGroup ? this.after.group + index + 1 : null,
    };
  }

  /** Cross-reference groups: the OEM number, any alternative, and 1-4 aftermarket equivalents. */
  *xrefGroups(): Generator<{ product: number; group: XrefGroupRow; references: XrefGroupReferenceRow[] }> {
    for (let p = 0; p < this.products; p++) {
      const product = this.product(p);
      if (product.groupId === null) continue;
      const group_id = product.groupId;
      const references: XrefGroupReferenceRow[] = [
        { group_id, reference: product.oem, brand: product.make.name, kind: 'oem' },
      ];
      if (product.oemAlternative) {
        references.push({
          group_id,
          reference: product.oemAlternative,
          brand: product.make.name,
          kind: 'oem',
        });
      }
      for (const e of product.equivalents) {
        references.push({ group_id, reference: e.reference, brand: e.brand, kind: 'aftermarket' });
      }
      yield {
        product: p,
        group: { id: group_id, label: `${product.part.names.pt} ${product.make.name} ${product.model.name}` },
        references,
      };
    }
  }

  /** Stock items `from` <= index < `to`, each with its associated references. */
  *items(
    from = 0,
    to = this.options.items,
  ): Generator<{ item: StockItemRow; references: StockItemReferenceRow[] }> {
    for (let i = from; i < to; i++) yield this.item(i);
  }

  item(index: number): { item: StockItemRow; references: StockItemReferenceRow[] } {
    const random = Random.forRow(this.seed, STREAM.item, index);
    const product = this.product(random.skewedIndex(this.products, PRODUCT_SKEW));
    const vendor = this.vendorFacts[random.skewedIndex(this.vendorFacts.length, VENDOR_SKEW)]!;
    const { part, make, model } = product;
    const kind = part.kind;
    const id = this.after.item + index + 1;

    const aftermarket = product.equivalents.length > 0 && random.chance(0.3);
    const equivalent = aftermarket ? random.pick(product.equivalents) : null;
    const condition: Condition = aftermarket
      ? random.chance(0.92)
        ? 'novo'
        : 'recondicionado'
      : random.chance(kind.usedShare)
        ? USED_CONDITIONS.pick(random)
        : 'novo';
    const reference = equivalent
      ? equivalent.reference
      : product.oemAlternative && random.chance(0.25)
        ? product.oemAlternative
        : product.oem;

    const price = Math.max(
      1,
      round2(
        product.basePrice *
          (aftermarket ? 0.62 : 1) *
          CONDITION_FACTOR[condition] *
          random.logNormal(1, 0.18),
      ),
    );
    const quantity =
      condition === 'novo' ? 1 + random.skewedIndex(25, 2.5) : random.chance(0.85) ? 1 : random.int(2, 4);
    const variant = random.chance(0.9) && model.variants.length ? random.pick(model.variants) : null;
    const lang: DemoLang = vendor.country.code === 'PT' || random.chance(0.5) ? 'pt' : vendor.country.lang;
    const vehicle = [make.name, model.name, variant].filter(Boolean).join(' ');
    const title = [
      part.names[lang],
      product.side ? sideWord(lang, product.side) : null,
      equivalent?.brand ?? null,
      '-',
      vehicle,
    ]
      .filter(Boolean)
      .join(' ');
    const description = listingDescription(
      { lang, condition, reference, vehicle, brand: equivalent?.brand ?? null },
      random,
    );

    const references: StockItemReferenceRow[] = [];
    const listed = new Set([normalizeReference(reference)]);
    const add = (ref: string, refKind: ReferenceKind, brand: string) => {
      const norm = normalizeReference(ref);
      if (listed.has(norm)) return;
      listed.add(norm);
      references.push({ item_id: id, reference: ref, kind: refKind, brand });
    };
    if (aftermarket) {
      add(product.oem, 'oem', make.name);
      if (random.chance(0.3)) for (const e of product.equivalents) add(e.reference, 'aftermarket', e.brand);
    } else {
      const shown = random.int(0, product.equivalents.length);
      for (const e of random.sample(product.equivalents, shown)) add(e.reference, 'aftermarket', e.brand);
      if (product.oemAlternative && random.chance(0.5)) add(product.oemAlternative, 'oem', make.name);
    }

    return {
      item: {
        id,
        vendor_id: vendor.id,
        reference,
        xref_group_id: product.groupId !== null && random.chance(0.9) ? product.groupId : null,
        part_id: part.id,
        title,
        description,
        condition,
        is_oem: !aftermarket,
        is_aftermarket: aftermarket,
        price: price.toFixed(2),
        currency: 'EUR',
        quantity,
        vehicle_make: make.name,
        vehicle_model: model.name,
        vehicle_variant: variant,
        location_country_code: random.chance(0.93) ? vendor.country.code : random.pick(COUNTRIES).code,
        text_language: lang,
      },
      references,
    };
  }
}
