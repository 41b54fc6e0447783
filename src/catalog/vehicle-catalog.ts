import { Random } from '../seeded-random.js';
import { realMakes } from './data/real-vehicles.js';

/** The spec's catalog sizes. */
export const MAKE_COUNT = 1_119;
export const MODEL_COUNT = 20_524;
/** Each model gets 5 or 6 variants: about 113,000, above the spec's "more than 105,000". */
const VARIANTS_PER_MODEL = [5, 6] as const;
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

export interface VehicleCatalog {
  makes: MakeRow[];
  models: ModelRow[];
  variants: VariantRow[];
  engines: EngineRow[];
}

const BODY_TYPES = ['hatchback', 'sedan', 'estate', 'suv', 'coupe', 'convertible', 'mpv', 'van', 'pickup'];
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

/** Combustion engines by fuel: displacement (cc) and power range (kW). */
const ENGINE_FAMILIES = [
  { fuel: 'petrol', label: '', cc: [998, 1199, 1398, 1598, 1798, 1984, 2995], kw: [44, 250] },
  { fuel: 'diesel', label: ' TDI', cc: [1461, 1598, 1968, 2143, 2987], kw: [55, 210] },
  { fuel: 'hybrid', label: ' Hybrid', cc: [1490, 1798, 1987, 2487], kw: [73, 225] },
  { fuel: 'lpg', label: ' GPL', cc: [999, 1199, 1598], kw: [49, 88] },
  { fuel: 'electric', label: '', cc: [], kw: [60, 300] },
] as const;

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
const hp = (kw: number) => Math.round(kw * 1.35962);

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

/**
 * The whole vehicle catalog, deterministic: the real makes and model lines first, then invented
 * makes and models up to the spec's exact counts, each model with 5–6 variants carrying technical
 * data and each variant one or two engines.
 */
export function buildVehicleCatalog(): VehicleCatalog {
  const real = realMakes();
  const taken = new Set(real.map((m) => m.name.toLowerCase()));
  const invented = inventedMakeNames(MAKE_COUNT - real.length, taken);

  const makes: MakeRow[] = [];
  const modelNamesByMake: string[][] = [];
  real.forEach((m, i) => {
    makes.push({ id: i + 1, name: m.name, country_code: m.country });
    modelNamesByMake.push(m.models);
  });
  const realModels = real.reduce((n, m) => n + m.models.length, 0);
  const inventedModels = MODEL_COUNT - realModels;
  invented.forEach((name, i) => {
    const id = real.length + i + 1;
    const random = Random.forRow(SEED, 1, id);
    makes.push({ id, name, country_code: random.pick(COUNTRIES) });
    // Spread the remaining models evenly: the first (remainder) makes get one more.
    const share =
      Math.floor(inventedModels / invented.length) + (i < inventedModels % invented.length ? 1 : 0);
    modelNamesByMake.push(inventedModelNames(random, share));
  });

  const models: ModelRow[] = [];
  const variants: VariantRow[] = [];
  const engines: EngineRow[] = [];
  makes.forEach((make, makeIndex) => {
    for (const name of modelNamesByMake[makeIndex]!) {
      const id = models.length + 1;
      const random = Random.forRow(SEED, 2, id);
      const yearFrom = random.int(1985, 2021);
      const yearTo = random.chance(0.35) ? null : Math.min(2025, yearFrom + random.int(3, 12));
      models.push({ id, make_id: make.id, name, year_from: yearFrom, year_to: yearTo });
      const body = random.pick(BODY_TYPES);
      const count = random.pick(VARIANTS_PER_MODEL);
      const variantNames = new Set<string>();
      for (let v = 0; v < count; v++) {
        const variantId = variants.length + 1;
        const vr = Random.forRow(SEED, 3, variantId);
        const family = ENGINE_FAMILIES[vr.int(0, ENGINE_FAMILIES.length - 1)]!;
        const cc = family.cc.length ? vr.pick(family.cc) : null;
        const kw = vr.int(family.kw[0], family.kw[1]);
        const code = `${make.name
          .replace(/[^A-Za-z]/g, '')
          .slice(0, 2)
          .toUpperCase()}${vr.int(100, 999)}${String.fromCharCode(65 + vr.int(0, 25))}`;
        const engineCodes = vr.chance(0.3)
          ? [code, `${code.slice(0, -1)}${String.fromCharCode(65 + vr.int(0, 25))}`]
          : [code];
        const from = Math.min(yearTo ?? 2025, yearFrom + vr.int(0, 4));
        const to = yearTo === null && vr.chance(0.5) ? null : Math.min(yearTo ?? 2025, from + vr.int(1, 6));
        const litres = cc ? (cc / 1000).toFixed(1) : null;
        let variantName = litres ? `${litres}${family.label} ${hp(kw)} cv` : `Elétrico ${kw} kW`;
        if (variantNames.has(variantName)) variantName = `${variantName} (${from})`;
        variantNames.add(variantName);
        variants.push({
          id: variantId,
          model_id: id,
          name: variantName,
          year_from: from,
          year_to: to,
          body_type: v === 0 ? body : vr.chance(0.8) ? body : vr.pick(BODY_TYPES),
          fuel_code: family.fuel,
          power_kw: kw,
          power_hp: hp(kw),
          displacement_cc: cc,
          engine_codes: engineCodes,
        });
        for (const engineCode of engineCodes) {
          engines.push({
            id: engines.length + 1,
            variant_id: variantId,
            code: engineCode,
            fuel_code: family.fuel,
            displacement_cc: cc,
            power_kw: kw,
            power_hp: hp(kw),
            cylinders: cc === null ? null : cc < 1100 ? 3 : cc < 2600 ? 4 : 6,
          });
        }
      }
    }
  });
  return { makes, models, variants, engines };
}
