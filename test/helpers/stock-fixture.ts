import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';
import type { Condition, ReferenceKind } from '../../src/db/schema.js';

/**
 * A small, explicit stock: every expected value in the search tests is computed from these
 * definitions by brute force, never written by hand.
 */
export interface FixtureItem {
  id: number;
  vendorId: number;
  reference: string;
  group?: number;
  refs?: { reference: string; kind: ReferenceKind; brand?: string }[];
  partId?: number;
  title: string;
  description?: string;
  condition: Condition;
  isOem?: boolean;
  isAftermarket?: boolean;
  price: number;
  make?: string;
  model?: string;
  variant?: string;
  country: string;
  quantity?: number;
  /** the listing's language (stock_items.text_language); none: not known */
  language?: 'pt' | 'en' | 'es' | 'fr' | 'de' | 'it';
}

export const FIXTURE_VENDORS = [
  { id: 1, name: 'Peças Lisboa', country_code: 'PT' },
  { id: 2, name: 'Recambios Madrid', country_code: 'ES' },
  { id: 3, name: 'Autoteile Berlin', country_code: 'DE' },
  { id: 4, name: 'Pièces Lyon', country_code: 'FR' },
];

export const FIXTURE_GROUPS = [
  {
    id: 1,
    refs: [
      { reference: '1K0 615 301 AA', kind: 'oem' as const, brand: 'VW' },
      { reference: '09.9145.11', kind: 'aftermarket' as const, brand: 'Brembo' },
      { reference: '24.0125-0131.1', kind: 'aftermarket' as const, brand: 'ATE' },
    ],
  },
  { id: 2, refs: [{ reference: '34 11 6 792 219', kind: 'oem' as const, brand: 'BMW' }] },
];

const passats: FixtureItem[] = Array.from({ length: 25 }, (_, i) => ({
  id: 100 + i,
  vendorId: (i % 4) + 1,
  reference: `3C0 698 151 ${String.fromCharCode(65 + (i % 26))}`,
  partId: 7,
  title: 'Pastilhas de travão traseiras',
  description: 'Jogo de pastilhas para eixo traseiro',
  condition: (['novo', 'usado_bom', 'recondicionado'] as const)[i % 3]!,
  isOem: i % 2 === 0,
  isAftermarket: i % 2 === 1,
  // repeated prices so that the id tie-break decides the order
  price: [30, 30, 30, 45.5, 60][i % 5]!,
  make: 'Volkswagen',
  model: 'Passat B8',
  variant: 'Passat B8 2.0 TDI',
  country: FIXTURE_VENDORS[i % 4]!.country_code,
}));

export const FIXTURE_ITEMS: FixtureItem[] = [
  {
    id: 1,
    vendorId: 1,
    reference: '1K0 615 301 AA',
    group: 1,
    partId: 3,
    title: 'Disco de travão dianteiro ventilado',
    description: 'Disco de travão original, 288 mm',
    condition: 'novo',
    isOem: true,
    price: 85,
    make: 'Volkswagen',
    model: 'Golf VII',
    variant: 'Golf VII 1.6 TDI',
    country: 'PT',
  },
  {
    id: 2,
    vendorId: 2,
    reference: '1K0-615-301-AA',
    group: 1,
    partId: 3,
    title: 'Disco de freno delantero',
    description: 'Disco usado en buen estado',
    condition: 'usado_bom',
    isOem: true,
    price: 40,
    make: 'VOLKSWAGEN',
    model: 'Golf VI',
    variant: 'Golf VI 2.0 TDI',
    country: 'ES',
  },
  {
    id: 3,
    vendorId: 3,
    reference: '09.9145.11',
    group: 1,
    partId: 3,
    title: 'Bremsscheibe vorne',
    description: 'Brembo Bremsscheibe, belüftet',
    condition: 'novo',
    isAftermarket: true,
    price: 55.5,
    make: 'Volkswagen',
    model: 'Golf VII',
    variant: 'Golf VII 2.0 GTI',
    country: 'DE',
  },
  {
    id: 4,
    vendorId: 4,
    reference: 'TRW DF4294',
    refs: [
      { reference: '1K0 615 301 AA', kind: 'oem', brand: 'VW' },
      { reference: 'DF 4294 S', kind: 'aftermarket', brand: 'TRW' },
    ],
    partId: 3,
    title: 'Disque de frein avant',
    description: 'Disque de frein TRW reconditionné',
    condition: 'recondicionado',
    isAftermarket: true,
    price: 49.99,
    make: 'Volkswagen',
    model: 'Golf VII',
    country: 'FR',
  },
  {
    id: 5,
    vendorId: 1,
    reference: '34 11 6 792 219',
    group: 2,
    partId: 3,
    title: 'Disco de travão BMW',
    description: 'Disco dianteiro para Série 3',
    condition: 'novo',
    isOem: true,
    price: 120,
    make: 'BMW',
    model: 'Série 3 (F30)',
    country: 'PT',
  },
  {
    id: 6,
    vendorId: 2,
    reference: '9665617780',
    partId: 11,
    title: 'Alternador Valeo',
    description: 'Alternador 150A reconstruido',
    condition: 'usado_aceitavel',
    isAftermarket: true,
    price: 150,
    make: 'Citroën',
    model: 'C4 Picasso',
    country: 'ES',
  },
  {
    id: 7,
    vendorId: 3,
    reference: 'GOLF-X-1',
    title: 'Spiegel links',
    description: 'Außenspiegel für Golfinho',
    condition: 'para_pecas',
    price: 10,
    make: 'Volkswagen',
    model: 'Golfinho X',
    country: 'DE',
  },
  {
    id: 8,
    vendorId: 4,
    reference: 'W 712/95',
    partId: 21,
    title: 'Filtre à huile Mann',
    description: 'Filtro de óleo para Golf',
    condition: 'novo',
    isAftermarket: true,
    price: 12.3,
    make: 'volkswagen',
    model: 'golf',
    country: 'FR',
    quantity: 12,
  },
  ...passats,
];

/**
 * Items for the relevance cases of the engine contract, loaded with the fixture there only. Their
 * words are in no other item, and they have no vehicle, part or group: every other case over
 * make, model, reference or text finds none of them. The most relevant one of each set is the most
 * expensive, so an order by price alone shows.
 */
export const RANKING_ITEMS: FixtureItem[] = [
  // "bomba água": in the title, or only in the (shorter) description of a cheaper item
  {
    id: 201,
    vendorId: 1,
    reference: 'RANK-201',
    title: 'Bomba de água',
    description: 'Peça nova em caixa original, com junta e parafusos incluídos',
    condition: 'novo',
    price: 70,
    country: 'PT',
  },
  {
    id: 202,
    vendorId: 2,
    reference: 'RANK-202',
    title: 'Kit de distribuição',
    description: 'Bomba de água',
    condition: 'novo',
    price: 35,
    country: 'ES',
  },
  // "radiador": in title and description, in the title only, in the description only
  {
    id: 211,
    vendorId: 3,
    reference: 'RANK-211',
    title: 'Radiador Nissens',
    description: 'Radiador em alumínio, núcleo de 32 mm',
    condition: 'recondicionado',
    price: 95,
    country: 'DE',
  },
  {
    id: 212,
    vendorId: 4,
    reference: 'RANK-212',
    title: 'Radiador de arrefecimento',
    description: 'Testado, sem fugas',
    condition: 'usado_bom',
    price: 60,
    country: 'FR',
  },
  {
    id: 213,
    vendorId: 1,
    reference: 'RANK-213',
    title: 'Ventoinha elétrica',
    description: 'Montada à frente do radiador',
    condition: 'usado_aceitavel',
    price: 25,
    country: 'PT',
  },
];

/**
 * Items for the histogram cases of the engine contract: one make (Trabant, in no other item) whose
 * prices span 10.00 to 20.01, so the buckets' exact width (0.5005) falls between two cents and
 * their bounds are rounded: 10.50 lies on the rounded bound between the first two buckets, 15.00
 * just below one, 15.01 on one.
 */
export const HISTOGRAM_ITEMS: FixtureItem[] = [10, 10.5, 10.51, 14.99, 15, 15.01, 15.5, 19.5, 20.01].map(
  (price, i) => ({
    id: 301 + i,
    vendorId: (i % 4) + 1,
    reference: `HIST-${301 + i}`,
    title: 'Farolim de nevoeiro',
    description: 'Lente inteira',
    condition: (['novo', 'usado_bom'] as const)[i % 2]!,
    price,
    make: 'Trabant',
    model: '601',
    country: (['PT', 'ES'] as const)[i % 2]!,
  }),
);

/**
 * Items for the money cases of the engine contract: one make (Moskvitch, in no other item) whose
 * averages all end in exactly half a cent — the whole set (16.525), each condition (16.025,
 * 17.025) and each country (16.275, 16.775), none of them a binary fraction. In doubles each lands
 * just below its half cent (66.1 / 4 is 16.524999999999998…), so an average computed from a sum of
 * doubles rounds down (16.52) where the exact one, numeric or whole cents, rounds half away from
 * zero (16.53).
 */
export const MONEY_ITEMS: FixtureItem[] = (
  [
    [15.73, 'novo', 'PT'],
    [16.32, 'novo', 'ES'],
    [16.82, 'usado_bom', 'PT'],
    [17.23, 'usado_bom', 'ES'],
  ] as const
).map(([price, condition, country], i) => ({
  id: 401 + i,
  vendorId: (i % 4) + 1,
  reference: `MONEY-${401 + i}`,
  title: 'Amortecedor de mala',
  description: 'Mola a gás',
  condition,
  price,
  make: 'Moskvitch',
  model: '412',
  country,
}));

/** What the engine contract loads: the fixture, the relevance, histogram and money items. */
export const CONTRACT_ITEMS: FixtureItem[] = [
  ...FIXTURE_ITEMS,
  ...RANKING_ITEMS,
  ...HISTOGRAM_ITEMS,
  ...MONEY_ITEMS,
];

/** Inserts the fixture with the same ids, so expectations can name items. */
/** A listing of the make "Idiomas" (what the languages' tests find their items by), its text as given. */
export const languageListing = (
  id: number,
  title: string,
  description?: string,
  language?: FixtureItem['language'],
): FixtureItem => ({
  id,
  vendorId: 1 + (id % 4),
  reference: `LANG-${id}`,
  title,
  description,
  condition: 'novo',
  price: 10 + id,
  make: 'Idiomas',
  model: 'Idiomas',
  country: 'PT',
  language,
});

export async function loadStockFixture(db: Database, items: FixtureItem[] = FIXTURE_ITEMS): Promise<void> {
  await db.insertInto('vendors').values(FIXTURE_VENDORS).execute();
  await db
    .insertInto('xref_groups')
    .values(FIXTURE_GROUPS.map((g) => ({ id: g.id })))
    .execute();
  await db
    .insertInto('xref_group_references')
    .values(
      FIXTURE_GROUPS.flatMap((g) =>
        g.refs.map((r) => ({ group_id: g.id, reference: r.reference, kind: r.kind, brand: r.brand })),
      ),
    )
    .execute();
  await insertStockItems(db, items);
  await advanceSequences(db, ['vendors', 'xref_groups', 'stock_items']);
}

/** Rows inserted with their ids leave the sequences behind; later rows inserted without one must not collide. */
async function advanceSequences(db: Database, tables: string[]): Promise<void> {
  for (const table of tables) {
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'), greatest((select max(id) from ${sql.table(table)}), 1))`.execute(
      db,
    );
  }
}

/** Stock items (and their associated references) as defined, once the fixture's vendors are there. */
export async function insertStockItems(db: Database, items: FixtureItem[]): Promise<void> {
  await db
    .insertInto('stock_items')
    .values(
      items.map((i) => ({
        id: i.id,
        vendor_id: i.vendorId,
        reference: i.reference,
        xref_group_id: i.group ?? null,
        part_id: i.partId ?? null,
        title: i.title,
        description: i.description ?? '',
        condition: i.condition,
        is_oem: i.isOem ?? false,
        is_aftermarket: i.isAftermarket ?? false,
        price: i.price,
        quantity: i.quantity ?? 1,
        vehicle_make: i.make ?? null,
        vehicle_model: i.model ?? null,
        vehicle_variant: i.variant ?? null,
        location_country_code: i.country,
        text_language: i.language ?? null,
      })),
    )
    .execute();
  const refs = items.flatMap((i) =>
    (i.refs ?? []).map((r) => ({
      item_id: i.id,
      reference: r.reference,
      kind: r.kind,
      brand: r.brand ?? null,
    })),
  );
  if (refs.length) await db.insertInto('stock_item_references').values(refs).execute();
}

/**
 * `count` plain items from id `from` on (the fixture's vendors must be there), in one statement: a
 * stock large enough that a rebuild takes several batches and some time.
 */
export async function insertGeneratedItems(db: Database, from: number, count: number): Promise<void> {
  await sql`
    insert into stock_items (id, vendor_id, reference, title, condition, price, location_country_code,
                             vehicle_make, vehicle_model)
    select i, 1 + i % 4, 'GEN-' || i, 'Peça gerada ' || i, 'novo', 1 + (i % 500), 'PT', 'Geradora', 'Modelo ' || (i % 7)
      from generate_series(${from}::bigint, ${from + count - 1}::bigint) as i`.execute(db);
}
