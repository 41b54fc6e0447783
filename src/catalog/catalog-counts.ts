import { sql } from 'kysely';
import type { Database } from '../db/database.js';

/** Rows in each catalog table: what `npm run catalog:seed` reports, and what the start checks. */
export interface CatalogCounts {
  lists: number;
  parts: number;
  makes: number;
  models: number;
  variants: number;
  engines: number;
}

export async function countCatalogRows(db: Database): Promise<CatalogCounts> {
  const { rows } = await sql<Record<keyof CatalogCounts, string>>`select
      (select count(*) from catalog_lists) as lists,
      (select count(*) from catalog_parts) as parts,
      (select count(*) from vehicle_makes) as makes,
      (select count(*) from vehicle_models) as models,
      (select count(*) from vehicle_variants) as variants,
      (select count(*) from vehicle_engines) as engines`.execute(db);
  const row = rows[0]!;
  return {
    lists: Number(row.lists),
    parts: Number(row.parts),
    makes: Number(row.makes),
    models: Number(row.models),
    variants: Number(row.variants),
    engines: Number(row.engines),
  };
}

/** The catalogs the API serves empty (none of its parts, or none of its vehicles), by name. */
export function emptyCatalogs(counts: CatalogCounts): ('peças' | 'veículos')[] {
  return [
    ...(counts.parts === 0 ? (['peças'] as const) : []),
    ...(counts.makes === 0 ? (['veículos'] as const) : []),
  ];
}
