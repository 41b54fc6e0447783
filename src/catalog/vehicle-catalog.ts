import { Random, Weighted } from '../seeded-random.js';
import type { FamilyName } from './data/engine-families.js';
import { lineFuels, realMakes, type RealLine } from './data/real-vehicles.js';
import { VEHICLE_CLASSES, type ClassName } from './data/vehicle-classes.js';
import {
  CATALOG_YEAR,
  modelVariants,
  type EngineRow,
  type ModelSpec,
  type VariantRow,
} from './vehicle-variants.js';

export type { EngineRow, VariantRow };

/** The spec's catalog sizes. */
export const MAKE_COUNT = 1_119;
export const MODEL_COUNT = 20_524;
const SEED = 20_524;

export interface MakeRow {
  id: number;
  name: string;
  country_code: string;
}
export interface ModelRow {
  id: number;
  make_id: number;
  name: string;
  year_from: number;
  year_to: number | null;
}

export interface VehicleCatalog {
  makes: MakeRow[];
  models: ModelRow[];
  variants: VariantRow[];
  engines: EngineRow[];
}

const COUNTRIES = [
  'DE',
  'FR',
  'IT',
  'ES',
  'GB',
  'SE',
  'CZ',
  'JP',
  'KR',
  'US',
  'CN',
  'IN',
  'NL',
  'AT',
  'PL',
  'RO',
];

/** How often an invented model is of each class: mostly everyday cars, a few vans and sports cars. */
const INVENTED_CLASSES = new Weighted<ClassName>([
  ['city', 8],
  ['small', 14],
  ['compact', 18],
  ['midsize', 12],
  ['executive', 5],
  ['suv_small', 10],
  ['suv', 12],
  ['suv_large', 4],
  ['offroad', 2],
  ['mpv', 6],
  ['van', 5],
  ['van_large', 2],
  ['pickup', 2],
  ['coupe', 3],
  ['roadster', 1],
  ['sports', 1],
  ['hot', 1],
]);
/** Share of invented models launched from 2012 on that are electric cars. */
const INVENTED_ELECTRIC_SHARE = 0.15;

const SYLLABLES = [
  'ka',
  'ro',
  'ven',
  'tar',
  'li',
  'mo',
  'sa',
  'del',
  'vi',
  'no',
  'ra',
  'ter',
  'zu',
  'bel',
  'cor',
  'da',
  'fe',
  'gan',
  'hal',
  'is',
  'jor',
  'ke',
  'lu',
  'mar',
  'ne',
  'os',
  'pra',
  'qui',
  'sol',
  'tu',
  'val',
  'wen',
  'xa',
  'yor',
  'zen',
];
const MODEL_WORDS = [
  'Aria',
  'Bora',
  'Cento',
  'Delta',
  'Estro',
  'Forza',
  'Gala',
  'Horizon',
  'Icon',
  'Jade',
  'Kappa',
  'Luma',
  'Meridian',
  'Nova',
  'Orbit',
  'Prima',
  'Quest',
  'Rio',
  'Sierra',
  'Terra',
  'Ultra',
  'Vela',
  'Wave',
  'Xenon',
  'Yara',
  'Zenith',
];

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Distinct invented make names ("Kavento", "Roldel", ...) for the makes beyond the real ones. */
function inventedMakeNames(count: number, taken: Set<string>): string[] {
  const names: string[] = [];
  const random = new Random(SEED);
  while (names.length < count) {
    const parts = random.int(2, 3);
    let name = '';
    for (let i = 0; i < parts; i++) name += random.pick(SYLLABLES);
    name = capitalize(name);
    if (!taken.has(name.toLowerCase())) {
      taken.add(name.toLowerCase());
      names.push(name);
    }
  }
  return names;
}

/** Model names for an invented make: a word and a series ("Nova 3", "Terra X5"). */
function inventedModelNames(random: Random, count: number): string[] {
  const names = new Set<string>();
  while (names.size < count) {
    const series = random.chance(0.5)
      ? String(random.int(1, 9))
      : `${random.pick(['X', 'S', 'GT', 'E', 'C'])}${random.int(1, 9)}`;
    names.add(`${random.pick(MODEL_WORDS)} ${series}`);
  }
  return [...names];
}

/** A model before its id: its name and what its variants are drawn from. */
type ModelPlan = Omit<ModelSpec, 'id' | 'makeName' | 'family'> & { name: string };

/** The models of a real make: its lines, each generation a model, in the data's order. */
function realModelPlans(lines: readonly RealLine[], family: FamilyName): ModelPlan[] {
  return lines.flatMap((line) =>
    line.models.map((model) => ({
      name: model.name,
      vehicleClass: line.vehicleClass,
      fuels: lineFuels(line, family),
      yearFrom: model.yearFrom,
      yearTo: model.yearTo,
    })),
  );
}

/** Invented models: a class, years between 1985 and the catalog's year, that class's fuels. */
function inventedModelPlans(random: Random, count: number): ModelPlan[] {
  return inventedModelNames(random, count).map((name) => {
    const vehicleClass = INVENTED_CLASSES.pick(random);
    const yearFrom = random.int(1985, 2021);
    const yearTo = random.chance(0.35) ? null : Math.min(CATALOG_YEAR, yearFrom + random.int(3, 12));
    const { fuels: classFuels, power } = VEHICLE_CLASSES[vehicleClass];
    const electric =
      yearFrom >= 2012 && power.electric !== undefined && random.chance(INVENTED_ELECTRIC_SHARE);
    const fuels = electric ? 'e' : classFuels;
    return { name, vehicleClass, fuels, yearFrom, yearTo };
  });
}

/**
 * The whole vehicle catalog, deterministic: the real makes with their real model lines and
 * generations first, then invented makes and models up to the spec's exact counts. Every model
 * has a class (city car, compact, large SUV, van…) and years; its 5–6 variants are drawn within
 * them (vehicle-variants.ts), each with one or two engines.
 */
export function buildVehicleCatalog(): VehicleCatalog {
  const real = realMakes();
  const taken = new Set(real.map((m) => m.name.toLowerCase()));
  const invented = inventedMakeNames(MAKE_COUNT - real.length, taken);

  const makes: MakeRow[] = [];
  const plansByMake: { family: FamilyName; models: ModelPlan[] }[] = [];
  real.forEach((m, i) => {
    makes.push({ id: i + 1, name: m.name, country_code: m.country });
    plansByMake.push({ family: m.family, models: realModelPlans(m.lines, m.family) });
  });
  const realModels = plansByMake.reduce((n, m) => n + m.models.length, 0);
  const inventedModels = MODEL_COUNT - realModels;
  invented.forEach((name, i) => {
    const id = real.length + i + 1;
    const random = Random.forRow(SEED, 1, id);
    makes.push({ id, name, country_code: random.pick(COUNTRIES) });
    // Spread the remaining models evenly: the first (remainder) makes get one more.
    const share =
      Math.floor(inventedModels / invented.length) + (i < inventedModels % invented.length ? 1 : 0);
    plansByMake.push({ family: 'generic', models: inventedModelPlans(random, share) });
  });

  const models: ModelRow[] = [];
  const variants: VariantRow[] = [];
  const engines: EngineRow[] = [];
  makes.forEach((make, makeIndex) => {
    const { family, models: plans } = plansByMake[makeIndex]!;
    for (const plan of plans) {
      const id = models.length + 1;
      models.push({ id, make_id: make.id, name: plan.name, year_from: plan.yearFrom, year_to: plan.yearTo });
      const drawn = modelVariants(
        { ...plan, id, makeName: make.name, family },
        SEED,
        Random.forRow(SEED, 2, id),
        variants.length + 1,
        engines.length + 1,
      );
      variants.push(...drawn.variants);
      engines.push(...drawn.engines);
    }
  });
  return { makes, models, variants, engines };
}
