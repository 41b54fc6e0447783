import { buildPartsCatalog } from '../catalog/parts-catalog.js';
import type { CatalogPartLike } from './demo-parts.js';

/** The catalog parts the demo stock draws part ids and titles from: the seeded parts catalog. */
export function demoCatalogParts(): readonly CatalogPartLike[] {
  return buildPartsCatalog().map((part) => ({ id: part.id, name: part.name }));
}
