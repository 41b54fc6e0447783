import { GENERIC_KIND, PART_KINDS, type Names, type PartKind } from './part-kinds.js';
import { Weighted } from '../seeded-random.js';

/** A part the demo stock offers: its catalog id (when the catalog knows it), names, price kind. */
export interface DemoPart {
  id: number | null;
  names: Names;
  kind: PartKind;
  /** add "left side"/"right side" to titles (catalog names already say it) */
  sided: boolean;
}

/** The subset of a catalog part the generator reads. */
export interface CatalogPartLike {
  id: number;
  name: Names;
}

/** Share of the stock given to catalog parts that match none of the known kinds. */
const GENERIC_WEIGHT = 6;

/**
 * Parts weighted by how often they are offered. With a catalog, every part kind is served by
 * the catalog parts whose English name matches it (so part_id and titles come from the catalog)
 * and the rest of the catalog gets the generic price kind; without one, the kinds themselves.
 */
export function demoParts(catalog: readonly CatalogPartLike[] = []): Weighted<DemoPart> {
  const entries: [DemoPart, number][] = [];
  const unmatched = new Set(catalog);
  for (const kind of PART_KINDS) {
    const matching = catalog.filter((part) => kind.match.test(part.name.en));
    matching.forEach((part) => unmatched.delete(part));
    if (!matching.length) {
      entries.push([{ id: null, names: kind.names, kind, sided: kind.sided }, kind.weight]);
      continue;
    }
    for (const part of matching) {
      entries.push([{ id: part.id, names: part.name, kind, sided: false }, kind.weight / matching.length]);
    }
  }
  for (const part of unmatched) {
    entries.push([
      { id: part.id, names: part.name, kind: GENERIC_KIND, sided: false },
      GENERIC_WEIGHT / unmatched.size,
    ]);
  }
  return new Weighted(entries);
}
