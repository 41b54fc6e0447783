import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { Database } from '../db/database.js';
import type { VehicleEnginesTable, VehicleVariantsTable } from '../db/schema.js';
import { notFound } from '../errors.js';
import { fold } from '../search/references.js';
import type { SearchEngine } from '../search/engine.js';
import type { ListKind } from './catalog-lists.js';
import { COUNTRIES } from './countries.js';
import type { Lang } from './data/languages.js';

export interface ListRequest {
  lang: Lang;
  q?: string;
  page: number;
  perPage: number;
}

export interface Page<T> {
  total: number;
  results: T[];
}

/** `%folded q%` with LIKE's wildcards escaped, so "50%" or "a_b" match literally. */
const containsFolded = (column: RawBuilder<unknown>, q: string) =>
  sql<boolean>`${column} like '%' || replace(replace(replace(f_fold(${q}), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`;

const offset = (r: ListRequest) => (r.page - 1) * r.perPage;

/**
 * The page's rows and the total of the whole filtered list in one round trip: each row carries
 * the count (an uncorrelated subquery, computed once). Only a page past the end, which has no
 * rows to carry it, asks for the count on its own.
 */
async function paged<T>(
  db: Database,
  count: RawBuilder<{ n: string }>,
  rows: (total: RawBuilder<unknown>) => RawBuilder<T>,
): Promise<Page<T>> {
  const result = await rows(sql`(${count}) as total_count`).execute(db);
  if (!result.rows.length) return { total: Number((await count.execute(db)).rows[0]!.n), results: [] };
  const total = Number((result.rows[0] as { total_count: string }).total_count);
  return {
    total,
    results: result.rows.map((row) => {
      const { total_count: _, ...fields } = row as T & { total_count: string };
      return fields as T;
    }),
  };
}

export async function listEntries(db: Database, kind: ListKind, r: ListRequest) {
  const name = sql`l.names ->> ${r.lang}`;
  const where = sql`l.kind = ${kind} ${r.q ? sql`and ${containsFolded(sql`f_fold(${name})`, r.q)}` : sql``}`;
  const shaped = await paged<{ code: string; name: string; native_name: string }>(
    db,
    sql`select count(*) as n from catalog_lists l where ${where}`,
    (total) =>
      sql`select l.code, ${name} as name, l.names ->> l.code as native_name, ${total}
        from catalog_lists l where ${where}
        order by l.sort_order, l.code limit ${r.perPage} offset ${offset(r)}`,
  );
  // Only languages have a name of their own ("Deutsch"); the other lists do not.
  return {
    total: shaped.total,
    results: shaped.results.map((row) => (kind === 'languages' ? row : { code: row.code, name: row.name })),
  };
}

export async function listMakes(db: Database, r: ListRequest) {
  const where = r.q ? sql`where ${containsFolded(sql`m.name_fold`, r.q)}` : sql``;
  return paged<{ id: number; name: string; country_code: string | null }>(
    db,
    sql`select count(*) as n from vehicle_makes m ${where}`,
    (total) =>
      sql`select m.id, m.name, m.country_code, ${total}
        from vehicle_makes m ${where}
        order by m.name_fold, m.id limit ${r.perPage} offset ${offset(r)}`,
  );
}

const MISSING = {
  vehicle_makes: 'Marca não encontrada',
  vehicle_models: 'Modelo não encontrado',
  vehicle_variants: 'Variante não encontrada',
};

async function assertExists(
  db: Database,
  table: 'vehicle_makes' | 'vehicle_models' | 'vehicle_variants',
  id: number,
) {
  const found = await db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst();
  if (!found) throw notFound(`${MISSING[table]} no catálogo: ${id}.`, 'CATALOG_ENTRY_NOT_FOUND');
}

/**
 * A page of a parent's children. Rows prove the parent exists (foreign key), so only an empty
 * page asks whether the id is unknown (404): one query instead of two in the common case.
 */
async function childrenOf<T>(
  db: Database,
  parent: 'vehicle_makes' | 'vehicle_models' | 'vehicle_variants',
  id: number,
  page: Promise<Page<T>>,
): Promise<Page<T>> {
  const found = await page;
  if (!found.results.length) await assertExists(db, parent, id);
  return found;
}

export async function listModels(db: Database, makeId: number, r: ListRequest) {
  const where = sql`m.make_id = ${makeId} ${r.q ? sql`and ${containsFolded(sql`m.name_fold`, r.q)}` : sql``}`;
  return childrenOf(
    db,
    'vehicle_makes',
    makeId,
    paged<{
      id: number;
      make_id: number;
      name: string;
      year_from: number | null;
      year_to: number | null;
    }>(
      db,
      sql`select count(*) as n from vehicle_models m where ${where}`,
      (total) =>
        sql`select m.id, m.make_id, m.name, m.year_from, m.year_to, ${total}
        from vehicle_models m where ${where}
        order by m.name_fold, m.id limit ${r.perPage} offset ${offset(r)}`,
    ),
  );
}

/**
 * A variant as the catalog lists it: its row, its fuel code answered as `fuel`. listVariants'
 * select names these columns one by one: a column added to the table must be added there too.
 */
export type VariantView = Omit<Selectable<VehicleVariantsTable>, 'fuel_code' | 'name_fold'> & {
  fuel: string | null;
};

export async function listVariants(db: Database, modelId: number, r: ListRequest) {
  const where = sql`v.model_id = ${modelId} ${r.q ? sql`and ${containsFolded(sql`v.name_fold`, r.q)}` : sql``}`;
  return childrenOf(
    db,
    'vehicle_models',
    modelId,
    paged<VariantView>(
      db,
      sql`select count(*) as n from vehicle_variants v where ${where}`,
      (total) =>
        sql`select v.id, v.model_id, v.name, v.year_from, v.year_to, v.body_type, v.fuel_code as fuel, v.power_kw,
               v.power_hp, v.displacement_cc, v.engine_codes, ${total}
        from vehicle_variants v where ${where}
        order by v.name_fold, v.id limit ${r.perPage} offset ${offset(r)}`,
    ),
  );
}

/**
 * An engine as the catalog lists it: its row, its fuel code answered as `fuel`. listEngines'
 * select names these columns one by one: a column added to the table must be added there too.
 */
export type EngineView = Omit<Selectable<VehicleEnginesTable>, 'fuel_code'> & { fuel: string | null };

export async function listEngines(db: Database, variantId: number, r: ListRequest) {
  const where = sql`e.variant_id = ${variantId} ${r.q ? sql`and ${containsFolded(sql`f_fold(e.code)`, r.q)}` : sql``}`;
  return childrenOf(
    db,
    'vehicle_variants',
    variantId,
    paged<EngineView>(
      db,
      sql`select count(*) as n from vehicle_engines e where ${where}`,
      (total) =>
        sql`select e.id, e.variant_id, e.code, e.fuel_code as fuel, e.displacement_cc, e.power_kw, e.power_hp, e.cylinders, ${total}
        from vehicle_engines e where ${where}
        order by e.id limit ${r.perPage} offset ${offset(r)}`,
    ),
  );
}

/** Pages an in-memory list, filtered by a folded substring of `label`. */
function pageOf<T>(items: T[], label: (item: T) => string, r: ListRequest): Page<T> {
  const q = r.q ? fold(r.q) : null;
  const matching = q ? items.filter((item) => fold(label(item)).includes(q)) : items;
  return { total: matching.length, results: matching.slice(offset(r), offset(r) + r.perPage) };
}

export function listCountries(r: ListRequest) {
  const named = COUNTRIES.map((c) => ({ code: c.code, name: c.name[r.lang] })).sort((a, b) =>
    a.name.localeCompare(b.name, r.lang),
  );
  return pageOf(named, (c) => `${c.name} ${c.code}`, r);
}

/** Brands, models of a brand, variants of a model: what is in stock now, with item counts. */
export async function listStock(
  engine: SearchEngine,
  field: 'make' | 'model' | 'variant',
  r: ListRequest,
  scope: { make?: string; model?: string } = {},
) {
  const values = await engine.facets({ field, ...scope });
  return pageOf(
    values.map((v) => ({ name: v.value, items: v.count })),
    (v) => v.name,
    r,
  );
}
