import { Random, Weighted } from '../seeded-random.js';
import { engineLabel, ENGINE_FAMILIES, type FamilyName } from './data/engine-families.js';
import {
  ENGINE_OPTIONS,
  FUEL_LETTERS,
  FUEL_SINCE,
  powerScale,
  specificOutput,
  VEHICLE_CLASSES,
  type ClassName,
  type FuelCode,
  type PowerBand,
} from './data/vehicle-classes.js';

/** A variant and an engine as the catalog tables hold them. */
export interface VariantRow {
  id: number;
  model_id: number;
  name: string;
  year_from: number;
  year_to: number | null;
  body_type: string;
  fuel_code: string;
  power_kw: number;
  power_hp: number;
  displacement_cc: number | null;
  engine_codes: string[];
}
export interface EngineRow {
  id: number;
  variant_id: number;
  code: string;
  fuel_code: string;
  displacement_cc: number | null;
  power_kw: number;
  power_hp: number;
  cylinders: number | null;
}

/** The last model year of the catalog: a model still sold runs to here. */
export const CATALOG_YEAR = 2025;

/** Each model gets 5 or 6 variants: about 113,000, above the spec's "more than 105,000". */
const VARIANTS_PER_MODEL = [5, 6] as const;

/** How often each fuel is drawn among those a model is sold with. */
const FUEL_WEIGHTS: Record<FuelCode, number> = {
  petrol: 40,
  diesel: 35,
  hybrid: 10,
  plugin_hybrid: 6,
  electric: 6,
  lpg: 3,
  hydrogen: 1,
};

/** What a model's variants are drawn from. */
export interface ModelSpec {
  id: number;
  makeName: string;
  family: FamilyName;
  vehicleClass: ClassName;
  /** fuel letters (FUEL_LETTERS) */
  fuels: string;
  yearFrom: number;
  yearTo: number | null;
}

const hp = (kw: number) => Math.round(kw * 1.35962);

/**
 * The first year `model` can have `fuel`: the market's, or its make's own earlier hybrids. A model
 * sold with one fuel only (a Prius, an Ampera) was built around it: it has it from its start.
 */
function fuelSince(fuel: FuelCode, model: ModelSpec): number {
  if (model.fuels.length === 1) return model.yearFrom;
  const own = ENGINE_FAMILIES[model.family].hybridSince;
  return fuel === 'hybrid' && own !== undefined ? own : FUEL_SINCE[fuel];
}

/** The model's fuels that its years and its class allow, each with the first year it can have it. */
function availableFuels(model: ModelSpec): { fuel: FuelCode; since: number; band: PowerBand }[] {
  const lastYear = model.yearTo ?? CATALOG_YEAR;
  const power = VEHICLE_CLASSES[model.vehicleClass].power;
  const found = [];
  for (const letter of model.fuels) {
    const fuel = FUEL_LETTERS[letter]!;
    const band = power[fuel];
    const since = Math.max(model.yearFrom, fuelSince(fuel, model));
    if (band && since <= lastYear) found.push({ fuel, since, band });
  }
  if (!found.length)
    throw new Error(
      `vehicle catalog: ${model.makeName} model ${model.id} (${model.vehicleClass}:${model.fuels}, ${model.yearFrom}–${model.yearTo ?? ''}) can have no fuel`,
    );
  return found;
}

/** What an engine is chosen within; each looser than the one before, for the rare variant none fits. */
const RELAXATIONS = [
  { makes: true, era: 'year', classSize: true },
  { makes: true, era: 'last', classSize: true },
  { makes: false, era: 'year', classSize: true },
  { makes: false, era: 'last', classSize: true },
  { makes: false, era: 'none', classSize: false },
] as const;

/**
 * An engine of `fuel` for a variant of `model` first sold in `year`: one of its make's
 * displacements, of its class's size, fitted that year, whose power range meets the class's band
 * and what a litre gave that year (both as strong as that year's cars); a power inside all of
 * them. A variant none fits (a 1991 diesel limousine asks more than that year's litres gave) gets
 * the engines of the model's last year, then any make's.
 */
function drawEngine(model: ModelSpec, fuel: FuelCode, band: PowerBand, year: number, random: Random) {
  const combustion = fuel === 'petrol' || fuel === 'diesel';
  const own = combustion ? ENGINE_FAMILIES[model.family].displacements?.[fuel] : undefined;
  const size = VEHICLE_CLASSES[model.vehicleClass].displacement;
  const lastYear = model.yearTo ?? CATALOG_YEAR;
  for (const relaxed of RELAXATIONS) {
    const era = relaxed.era === 'year' ? year : relaxed.era === 'last' ? lastYear : null;
    const output = era === null ? null : specificOutput(fuel, era, model.vehicleClass);
    const scale = era === null ? 1 : powerScale(era);
    const choices = ENGINE_OPTIONS[fuel].flatMap((option) => {
      const cc = option.cc ?? 0;
      if (relaxed.makes && own && !own.includes(cc)) return [];
      if (relaxed.classSize && combustion && size && (cc < size[0] || cc > size[1])) return [];
      if (era !== null && option.years && (option.years[0] > era || option.years[1] < year)) return [];
      const lo = Math.max(
        Math.round(option.kw[0] * scale),
        Math.round(band[0] * scale),
        output ? Math.ceil((cc / 1000) * output.min) : 0,
      );
      const hi = Math.min(
        option.kw[1],
        Math.round(band[1] * scale),
        output ? Math.floor((cc / 1000) * output.max) : Infinity,
      );
      return lo <= hi ? [{ option, lo, hi }] : [];
    });
    if (!choices.length) continue;
    const { option, lo, hi } = random.pick(choices);
    return { cc: option.cc, cylinders: option.cylinders, kw: random.int(lo, hi) };
  }
  throw new Error(`vehicle catalog: no ${fuel} engine gives ${band[0]}–${band[1]} kW`);
}

function variantName(model: ModelSpec, fuel: FuelCode, cc: number | null, kw: number, year: number): string {
  if (fuel === 'electric') return `Elétrico ${kw} kW`;
  if (fuel === 'hydrogen') return `Hidrogénio ${kw} kW`;
  const label = engineLabel(ENGINE_FAMILIES[model.family], fuel, year);
  return [(cc! / 1000).toFixed(1), label, `${hp(kw)} cv`].filter(Boolean).join(' ');
}

/**
 * A model's variants and their engines, ids from `firstVariantId` and `firstEngineId`. Each variant
 * is sold within its model's years (a fuel only once it reached the market), with a body of the
 * model's class and an engine whose displacement gives its power. Deterministic: every variant
 * draws from its own seeded stream.
 */
export function modelVariants(
  model: ModelSpec,
  seed: number,
  modelRandom: Random,
  firstVariantId: number,
  firstEngineId: number,
): { variants: VariantRow[]; engines: EngineRow[] } {
  const fuels = new Weighted(availableFuels(model).map((f) => [f, FUEL_WEIGHTS[f.fuel]] as const));
  const bodies = VEHICLE_CLASSES[model.vehicleClass].bodies;
  const lastYear = model.yearTo ?? CATALOG_YEAR;
  const count = modelRandom.pick(VARIANTS_PER_MODEL);
  const variants: VariantRow[] = [];
  const engines: EngineRow[] = [];
  const names = new Set<string>();
  for (let v = 0; v < count; v++) {
    const id = firstVariantId + v;
    const random = Random.forRow(seed, 3, id);
    const { fuel, since, band } = fuels.pick(random);
    const from = since + random.int(0, Math.min(4, lastYear - since));
    const engine = drawEngine(model, fuel, band, from, random);
    const to =
      model.yearTo === null && random.chance(0.5) ? null : Math.min(lastYear, from + random.int(1, 6));
    const prefix = model.makeName
      .replace(/[^A-Za-z]/g, '')
      .slice(0, 2)
      .toUpperCase();
    const code = `${prefix}${random.int(100, 999)}${String.fromCharCode(65 + random.int(0, 25))}`;
    const engineCodes = random.chance(0.3)
      ? [code, `${code.slice(0, -1)}${String.fromCharCode(65 + random.int(0, 25))}`]
      : [code];
    const base = variantName(model, fuel, engine.cc, engine.kw, from);
    // Two variants of a model alike in engine and power: the year they came out tells them apart.
    let name = names.has(base) ? `${base} (${from})` : base;
    for (let n = 2; names.has(name); n++) name = `${base} (${from}, ${n})`;
    names.add(name);
    variants.push({
      id,
      model_id: model.id,
      name,
      year_from: from,
      year_to: to,
      body_type: v === 0 || random.chance(0.8) ? bodies[0]! : random.pick(bodies),
      fuel_code: fuel,
      power_kw: engine.kw,
      power_hp: hp(engine.kw),
      displacement_cc: engine.cc,
      engine_codes: engineCodes,
    });
    for (const engineCode of engineCodes) {
      engines.push({
        id: firstEngineId + engines.length,
        variant_id: id,
        code: engineCode,
        fuel_code: fuel,
        displacement_cc: engine.cc,
        power_kw: engine.kw,
        power_hp: hp(engine.kw),
        cylinders: engine.cylinders,
      });
    }
  }
  return { variants, engines };
}
