import { buildVehicleCatalog, type VehicleCatalog } from '../catalog/vehicle-catalog.js';
import { CATALOG_YEAR } from '../catalog/vehicle-variants.js';
import { Weighted } from '../seeded-random.js';
import type { OemFormat } from './reference-patterns.js';
import { STOCK_MAKES } from './vehicles.js';

/** A catalog model as the stock offers parts for it. */
export interface StockModel {
  name: string;
  /** VAG platform prefixes of its part numbers; empty for other makes */
  platforms: readonly string[];
  /** its variants' names in the catalog */
  variants: readonly string[];
}

export interface StockMake {
  name: string;
  weight: number;
  format: OemFormat;
  /** the make's catalog models, weighted by how many of their years are still on the road */
  models: Weighted<StockModel>;
}

/** Parts are mostly sought for the cars still on the road: a model's years from this one count. */
const ON_THE_ROAD_FROM = 2000;
/** ...up to this many: a line sold for thirty years is not thirty times as common as a generation. */
const YEARS_COUNTED = 10;
/** How common each kind of car is, by its main body (its first variant's). */
const BODY_SHARE: Record<string, number> = {
  hatchback: 3,
  sedan: 2,
  estate: 2,
  suv: 2,
  mpv: 1.5,
  van: 1.5,
  pickup: 0.5,
  coupe: 0.4,
  convertible: 0.4,
};
/** Cars this strong (kW) are few: a sports saloon's parts are rarely offered. */
const RARE_POWER_KW = 250;

/**
 * How often parts for a model are offered: the years it has been on the road, as common as its
 * kind of car. An old or rare model still gets some.
 */
function modelWeight(model: VehicleCatalog['models'][number], variants: VehicleCatalog['variants']): number {
  const lastYear = model.year_to ?? CATALOG_YEAR;
  const years = Math.min(
    YEARS_COUNTED,
    Math.max(0, lastYear - Math.max(model.year_from, ON_THE_ROAD_FROM) + 1),
  );
  const body = BODY_SHARE[variants[0]?.body_type ?? ''] ?? 1;
  const rare = variants.every((v) => v.power_kw >= RARE_POWER_KW) ? 0.3 : 1;
  return (1 + years) * body * rare;
}

/** Upper-case letters part numbers use (no I, O, Q, Y), for platforms made from a model's id. */
const PLATFORM_LETTERS = 'ABCDEFGHJKLMNPRSTUVWXZ';

/** A VAG-shaped platform prefix ("3K0") for a model the stock facts give none. */
const platformOf = (modelId: number) =>
  `${(modelId % 9) + 1}${PLATFORM_LETTERS[Math.floor(modelId / 9) % PLATFORM_LETTERS.length]}0`;

/**
 * The stock's makes with their models and variants as `catalog` lists them. A make or platform
 * model the catalog does not have is an error here, not a stock of vehicles nobody can look up.
 */
export function stockMakes(catalog: VehicleCatalog): StockMake[] {
  const variantsOf = new Map<number, VehicleCatalog['variants']>();
  for (const variant of catalog.variants) {
    const list = variantsOf.get(variant.model_id);
    if (list) list.push(variant);
    else variantsOf.set(variant.model_id, [variant]);
  }
  return STOCK_MAKES.map((facts) => {
    const make = catalog.makes.find((m) => m.name === facts.name);
    if (!make) throw new Error(`demo stock: the vehicle catalog has no make ${facts.name}`);
    const models = catalog.models.filter((m) => m.make_id === make.id);
    const names = new Set(models.map((m) => m.name));
    for (const model of Object.keys(facts.platforms ?? {})) {
      if (!names.has(model)) throw new Error(`demo stock: the vehicle catalog has no ${facts.name} ${model}`);
    }
    const weighted = models.map((model) => {
      const variants = variantsOf.get(model.id) ?? [];
      const platforms =
        facts.format === 'vag' ? (facts.platforms?.[model.name] ?? [platformOf(model.id)]) : [];
      const stockModel: StockModel = { name: model.name, platforms, variants: variants.map((v) => v.name) };
      return [stockModel, modelWeight(model, variants)] as const;
    });
    return { name: facts.name, weight: facts.weight, format: facts.format, models: new Weighted(weighted) };
  });
}

let seeded: StockMake[] | undefined;

/**
 * The stock makes of the vehicle catalog the API seeds (seed.ts builds the same catalog), built
 * once per process: building it takes about a second and it never changes.
 */
export function seededStockMakes(): StockMake[] {
  return (seeded ??= stockMakes(buildVehicleCatalog()));
}
