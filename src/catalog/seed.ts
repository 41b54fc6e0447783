import { sql } from 'kysely';
import type { Database } from '../db/database.js';
import { bulkInsert, type ColumnValues } from './bulk-insert.js';
import { catalogLists } from './catalog-lists.js';
import { buildPartsCatalog } from './parts-catalog.js';
import { buildVehicleCatalog } from './vehicle-catalog.js';

export type SeedProgress = (done: number, total: number, label: string) => void;

const BATCH = 10_000;

/** Rows of one table, column by column, for bulkInsert. */
type ColumnSpec<T> = Record<string, [ColumnValues['type'], (row: T) => unknown]>;

function columns<T>(rows: T[], spec: ColumnSpec<T>): ColumnValues[] {
  return Object.entries(spec).map(([name, [type, read]]) => ({ name, type, values: rows.map(read) }));
}

async function insertInBatches<T>(
  db: Database,
  table: string,
  rows: T[],
  spec: ColumnSpec<T>,
  progress: (done: number) => void,
) {
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH);
    await bulkInsert(db, table, columns(batch, spec));
    progress(start + batch.length);
  }
}

/**
 * Fills the catalog tables (lists, 1,656 parts, 1,119 makes, 20,524 models, their variants and
 * engines) in one transaction when they are empty; a no-op when the catalog is already there.
 * The data is the same on every run (generated from fixed seeds).
 */
export async function seedCatalog(
  db: Database,
  options: { onProgress?: SeedProgress } = {},
): Promise<{ seeded: boolean; rows: number; seconds: number }> {
  const started = performance.now();
  const present = await db.selectFrom('vehicle_makes').select('id').limit(1).executeTakeFirst();
  if (present) return { seeded: false, rows: 0, seconds: 0 };

  const parts = buildPartsCatalog();
  const lists = catalogLists(parts);
  const vehicles = buildVehicleCatalog();
  const total =
    lists.length +
    parts.length +
    vehicles.makes.length +
    vehicles.models.length +
    vehicles.variants.length +
    vehicles.engines.length;
  let done = 0;
  const report = (label: string) => (count: number) => options.onProgress?.(done + count, total, label);
  const LABEL = 'Catálogos';

  await db.transaction().execute(async (trx) => {
    // Two processes starting at once: the second waits here and then finds the catalog present.
    await sql`lock table vehicle_makes in exclusive mode`.execute(trx);
    const again = await trx.selectFrom('vehicle_makes').select('id').limit(1).executeTakeFirst();
    if (again) return;
    const tx = trx as unknown as Database;
    await insertInBatches(
      tx,
      'catalog_lists',
      lists,
      {
        kind: ['text', (r) => r.kind],
        code: ['text', (r) => r.code],
        sort_order: ['int', (r) => r.sortOrder],
        names: ['jsonb', (r) => JSON.stringify(r.name)],
      },
      report(LABEL),
    );
    done += lists.length;
    await insertInBatches(
      tx,
      'catalog_parts',
      parts,
      {
        id: ['int', (r) => r.id],
        code: ['text', (r) => r.code],
        group_code: ['text', (r) => r.group],
        type_code: ['text', (r) => r.type],
        location_code: ['text', (r) => r.location],
        side_code: ['text', (r) => r.side],
        names: ['jsonb', (r) => JSON.stringify(r.name)],
      },
      report(LABEL),
    );
    done += parts.length;
    await insertInBatches(
      tx,
      'vehicle_makes',
      vehicles.makes,
      {
        id: ['int', (r) => r.id],
        name: ['text', (r) => r.name],
        country_code: ['text', (r) => r.country_code],
      },
      report(LABEL),
    );
    done += vehicles.makes.length;
    await insertInBatches(
      tx,
      'vehicle_models',
      vehicles.models,
      {
        id: ['int', (r) => r.id],
        make_id: ['int', (r) => r.make_id],
        name: ['text', (r) => r.name],
        year_from: ['int', (r) => r.year_from],
        year_to: ['int', (r) => r.year_to],
      },
      report(LABEL),
    );
    done += vehicles.models.length;
    await insertInBatches(
      tx,
      'vehicle_variants',
      vehicles.variants,
      {
        id: ['int', (r) => r.id],
        model_id: ['int', (r) => r.model_id],
        name: ['text', (r) => r.name],
        year_from: ['int', (r) => r.year_from],
        year_to: ['int', (r) => r.year_to],
        body_type: ['text', (r) => r.body_type],
        fuel_code: ['text', (r) => r.fuel_code],
        power_kw: ['int', (r) => r.power_kw],
        power_hp: ['int', (r) => r.power_hp],
        displacement_cc: ['int', (r) => r.displacement_cc],
        engine_codes: ['text[]', (r) => r.engine_codes.join(',')],
      },
      report(LABEL),
    );
    done += vehicles.variants.length;
    await insertInBatches(
      tx,
      'vehicle_engines',
      vehicles.engines,
      {
        id: ['int', (r) => r.id],
        variant_id: ['int', (r) => r.variant_id],
        code: ['text', (r) => r.code],
        fuel_code: ['text', (r) => r.fuel_code],
        displacement_cc: ['int', (r) => r.displacement_cc],
        power_kw: ['int', (r) => r.power_kw],
        power_hp: ['int', (r) => r.power_hp],
        cylinders: ['int', (r) => r.cylinders],
      },
      report(LABEL),
    );
  });
  await sql`analyze catalog_parts, vehicle_makes, vehicle_models, vehicle_variants, vehicle_engines`.execute(
    db,
  );
  return { seeded: true, rows: total, seconds: (performance.now() - started) / 1000 };
}
