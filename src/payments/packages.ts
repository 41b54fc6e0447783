import type { Database } from '../db/database.js';
import { notFound } from '../errors.js';

/** A credit package on sale. */
export interface PackageRow {
  id: string;
  name: string;
  credits: number;
  price_eur: string;
}

/** The packages on sale, in their order. */
export function activePackages(db: Database): Promise<PackageRow[]> {
  return db
    .selectFrom('credit_packages')
    .select(['id', 'name', 'credits', 'price_eur'])
    .where('active', '=', true)
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
}

/** A package on sale; 404 PACKAGE_NOT_FOUND naming the ones there are. */
export async function findPackage(db: Database, packageId: string): Promise<PackageRow> {
  const packages = await activePackages(db);
  const chosen = packages.find((p) => p.id === packageId);
  if (!chosen) {
    throw notFound(
      `Pacote de créditos desconhecido: ${packageId}. Disponíveis: ${packages.map((p) => p.id).join(', ')}.`,
      'PACKAGE_NOT_FOUND',
    );
  }
  return chosen;
}
