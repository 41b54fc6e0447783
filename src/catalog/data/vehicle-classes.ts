/**
 * What makes a variant's technical data believable: the class of its model (a city car, a large
 * SUV, a van…) decides its bodies and, for each fuel, the power it is sold with; an engine's
 * displacement decides the power it can give; a fuel is only sold from the year it reached the
 * European market. The vehicle catalog draws every variant within these bounds.
 */

/** The fuel codes of the catalog's fuel list (reference-lists.ts) that variants use. */
export type FuelCode = 'petrol' | 'diesel' | 'hybrid' | 'plugin_hybrid' | 'electric' | 'lpg' | 'hydrogen';

/** Fuels written as letters in the data (`compact:pdxe`): one letter per fuel. */
export const FUEL_LETTERS: Record<string, FuelCode> = {
  p: 'petrol',
  d: 'diesel',
  h: 'hybrid',
  x: 'plugin_hybrid',
  e: 'electric',
  l: 'lpg',
  z: 'hydrogen',
};

/** A power range in kW, both ends included. */
export type PowerBand = readonly [number, number];

export interface VehicleClass {
  /** the body of most of its variants first, then the other bodies it is sold with */
  bodies: readonly string[];
  /** the fuels its models are sold with unless a model says otherwise (letters of FUEL_LETTERS) */
  fuels: string;
  /** the power its variants have, by fuel; a fuel without a band is never sold in the class */
  power: Partial<Record<FuelCode, PowerBand>>;
  /** the displacements (cc) of its petrol and diesel engines: no 2.0 in a city car */
  displacement?: readonly [number, number];
}

const CLASSES = {
  city: {
    bodies: ['hatchback'],
    displacement: [0, 1400],
    fuels: 'pdhl',
    power: { petrol: [44, 74], diesel: [50, 70], hybrid: [51, 72], lpg: [44, 62], electric: [60, 85] },
  },
  small: {
    bodies: ['hatchback', 'sedan', 'estate'],
    displacement: [0, 1800],
    fuels: 'pdhl',
    power: { petrol: [50, 110], diesel: [50, 85], hybrid: [74, 96], lpg: [55, 80], electric: [80, 125] },
  },
  /** hot hatches: a small or compact body, a sports car's engine */
  hot: {
    bodies: ['hatchback'],
    displacement: [1300, 2500],
    fuels: 'p',
    power: { petrol: [100, 300], electric: [100, 170] },
  },
  compact: {
    bodies: ['hatchback', 'estate', 'sedan'],
    displacement: [0, 2500],
    fuels: 'pdhxl',
    power: {
      petrol: [63, 180],
      diesel: [66, 135],
      hybrid: [90, 145],
      plugin_hybrid: [150, 180],
      lpg: [70, 88],
      electric: [100, 150],
    },
  },
  midsize: {
    bodies: ['sedan', 'estate'],
    displacement: [1300, 3000],
    fuels: 'pdhx',
    power: {
      petrol: [92, 195],
      diesel: [85, 176],
      hybrid: [100, 160],
      plugin_hybrid: [160, 220],
      lpg: [85, 110],
      electric: [150, 250],
      hydrogen: [110, 140],
    },
  },
  executive: {
    bodies: ['sedan', 'estate'],
    displacement: [1800, 6500],
    fuels: 'pdhx',
    power: {
      petrol: [135, 330],
      diesel: [120, 250],
      hybrid: [150, 260],
      plugin_hybrid: [200, 290],
      electric: [200, 400],
    },
  },
  /** the fast versions of saloons and estates (M5, RS 6) */
  performance: {
    bodies: ['sedan', 'estate', 'coupe'],
    displacement: [2400, 6500],
    fuels: 'p',
    power: { petrol: [250, 470] },
  },
  luxury: {
    bodies: ['sedan'],
    displacement: [2900, 6500],
    fuels: 'pdhx',
    power: {
      petrol: [200, 485],
      diesel: [190, 260],
      hybrid: [220, 330],
      plugin_hybrid: [250, 420],
      electric: [250, 450],
    },
  },
  suv_small: {
    bodies: ['suv'],
    displacement: [0, 2000],
    fuels: 'pdhl',
    power: {
      petrol: [70, 118],
      diesel: [66, 96],
      hybrid: [85, 105],
      plugin_hybrid: [150, 180],
      lpg: [74, 88],
      electric: [100, 160],
    },
  },
  suv: {
    bodies: ['suv'],
    displacement: [1300, 3000],
    fuels: 'pdhx',
    power: {
      petrol: [110, 195],
      diesel: [85, 176],
      hybrid: [130, 165],
      plugin_hybrid: [165, 225],
      electric: [150, 250],
    },
  },
  suv_large: {
    bodies: ['suv'],
    displacement: [1900, 6500],
    fuels: 'pdhx',
    power: {
      petrol: [185, 480],
      diesel: [140, 250],
      hybrid: [200, 300],
      plugin_hybrid: [250, 420],
      electric: [250, 400],
    },
  },
  offroad: {
    bodies: ['suv'],
    fuels: 'pd',
    power: { petrol: [60, 250], diesel: [75, 190] },
  },
  mpv: {
    bodies: ['mpv'],
    displacement: [0, 2500],
    fuels: 'pdh',
    power: {
      petrol: [81, 150],
      diesel: [66, 135],
      hybrid: [100, 140],
      plugin_hybrid: [150, 170],
      lpg: [70, 90],
      electric: [100, 150],
    },
  },
  /** small vans and their passenger versions (Berlingo, Kangoo, Caddy, Vito) */
  van: {
    bodies: ['van', 'mpv'],
    displacement: [0, 2000],
    fuels: 'pdl',
    power: { petrol: [60, 110], diesel: [55, 110], lpg: [60, 85], electric: [75, 100] },
  },
  /** large vans (Transit, Sprinter, Ducato) */
  van_large: {
    bodies: ['van'],
    displacement: [1900, 3000],
    fuels: 'd',
    power: { diesel: [75, 140], petrol: [100, 130], electric: [90, 150] },
  },
  pickup: {
    bodies: ['pickup'],
    displacement: [1900, 3000],
    fuels: 'd',
    power: { diesel: [100, 160], petrol: [120, 300] },
  },
  coupe: {
    bodies: ['coupe', 'convertible'],
    displacement: [1300, 6500],
    fuels: 'pd',
    power: { petrol: [110, 280], diesel: [110, 180] },
  },
  roadster: {
    bodies: ['convertible'],
    fuels: 'p',
    power: { petrol: [45, 220], diesel: [100, 140] },
  },
  sports: {
    bodies: ['coupe', 'convertible'],
    displacement: [1900, 6500],
    fuels: 'p',
    power: { petrol: [220, 450], plugin_hybrid: [250, 500], electric: [300, 500] },
  },
  supercar: {
    bodies: ['coupe', 'convertible'],
    displacement: [3800, 6500],
    fuels: 'p',
    power: { petrol: [370, 600], plugin_hybrid: [500, 735] },
  },
  /** light electric quadricycles (Twizy) */
  quadricycle: {
    bodies: ['hatchback'],
    fuels: 'e',
    power: { electric: [4, 15] },
  },
} satisfies Record<string, VehicleClass>;

export type ClassName = keyof typeof CLASSES;
export const VEHICLE_CLASSES: Record<ClassName, VehicleClass> = CLASSES;

export const isClassName = (name: string): name is ClassName => Object.hasOwn(CLASSES, name);

/** The year each fuel reached the European market; a make may have sold hybrids earlier. */
export const FUEL_SINCE: Record<FuelCode, number> = {
  petrol: 0,
  diesel: 0,
  lpg: 1995,
  hybrid: 2012,
  plugin_hybrid: 2013,
  electric: 2010,
  hydrogen: 2014,
};

/** Classes whose engines are tuned beyond an everyday car's. */
const SPORTY: ReadonlySet<ClassName> = new Set(['hot', 'performance', 'sports', 'supercar']);

/**
 * The power a litre of an everyday engine gave from a year on (kW): a 1.0 petrol of 2004 gives
 * about 50 kW, not 70 — the small turbo engines came later, as diesels grew from 35 to 80 kW a
 * litre. Fuels without steps here (hybrids, gas) are bounded by their engine's range alone.
 */
const OUTPUT_BY_YEAR: Partial<Record<FuelCode, readonly (readonly [number, number])[]>> = {
  petrol: [
    [0, 50],
    [1995, 58],
    [2005, 80],
    [2012, 95],
  ],
  diesel: [
    [0, 38],
    [1997, 52],
    [2005, 65],
    [2012, 80],
  ],
};
const OUTPUT_MIN: Partial<Record<FuelCode, number>> = { petrol: 30, diesel: 25 };

/**
 * The classes' bands are today's: cars grew stronger, and a 1985 model had about 60 % of its
 * successor's power (a 1987 executive saloon's 3.0 V6 gave 136 kW, not 250). The share by year.
 */
export function powerScale(year: number): number {
  return Math.min(1, 0.6 + (Math.max(0, year - 1985) * 0.4) / 30);
}

/** What a litre of a `fuel` engine of `year` gives in `vehicleClass` (sporty ones half again). */
export function specificOutput(
  fuel: FuelCode,
  year: number,
  vehicleClass: ClassName,
): { min: number; max: number } | null {
  const steps = OUTPUT_BY_YEAR[fuel];
  if (!steps) return null;
  let max = 0;
  for (const [since, kw] of steps) if (since <= year) max = kw;
  return { min: OUTPUT_MIN[fuel] ?? 0, max: SPORTY.has(vehicleClass) ? max * 1.5 : max };
}

/**
 * An engine as built: displacement (null for motors without one), the power range it gives and,
 * for engines of one era (the 1.9 TDI), the years it was fitted.
 */
export interface EngineOption {
  cc: number | null;
  kw: PowerBand;
  cylinders: number | null;
  years?: readonly [number, number];
}

const engine = (
  cc: number | null,
  kw: PowerBand,
  cylinders: number | null,
  years?: readonly [number, number],
): EngineOption => ({ cc, kw, cylinders, ...(years ? { years } : {}) });

/**
 * Engines by fuel. A hybrid's power is the system's (engine and motor together): a 1.5 hybrid
 * gives 68–96 kW, never 156.
 */
export const ENGINE_OPTIONS: Record<FuelCode, readonly EngineOption[]> = {
  petrol: [
    engine(998, [44, 92], 3),
    engine(1198, [50, 96], 3),
    engine(1368, [55, 132], 4),
    engine(1498, [74, 118], 4),
    engine(1598, [74, 147], 4),
    engine(1798, [92, 162], 4),
    engine(1984, [110, 245], 4),
    engine(2480, [147, 294], 5),
    engine(2995, [185, 360], 6),
    engine(3902, [420, 530], 8),
    engine(3996, [300, 470], 8),
    engine(4395, [330, 460], 8),
    engine(5204, [397, 470], 10),
    engine(5998, [400, 485], 12),
    engine(6498, [515, 566], 12),
  ],
  diesel: [
    engine(1199, [55, 66], 3, [2009, 2016]),
    engine(1248, [55, 70], 4, [2003, 9999]),
    engine(1398, [50, 68], 4, [1998, 2019]),
    engine(1461, [48, 85], 4, [2001, 9999]),
    engine(1499, [55, 96], 4, [2014, 9999]),
    engine(1560, [55, 88], 4, [2003, 9999]),
    engine(1598, [55, 100], 4, [2004, 9999]),
    engine(1896, [47, 110], 4, [1985, 2010]),
    engine(1968, [81, 176], 4, [2003, 9999]),
    engine(1997, [66, 133], 4, [1998, 9999]),
    engine(2143, [100, 150], 4, [2008, 9999]),
    engine(2179, [94, 150], 4, [2000, 9999]),
    engine(2287, [81, 132], 4, [2006, 9999]),
    engine(2488, [98, 140], 4),
    engine(2993, [150, 250], 6, [1998, 9999]),
  ],
  hybrid: [
    engine(1490, [68, 96], 3),
    engine(1598, [96, 107], 4),
    engine(1798, [90, 103], 4),
    engine(1987, [135, 145], 4),
    engine(2487, [160, 225], 4),
    engine(2995, [220, 330], 6),
  ],
  plugin_hybrid: [
    engine(1395, [150, 180], 4),
    engine(1598, [165, 225], 4),
    engine(1984, [185, 290], 4),
    engine(2487, [200, 225], 4),
    engine(2995, [290, 610], 6),
    engine(3996, [400, 735], 8),
  ],
  lpg: [
    engine(999, [49, 74], 3),
    engine(1199, [51, 74], 4),
    engine(1368, [55, 88], 4),
    engine(1598, [62, 88], 4),
    engine(1998, [90, 110], 4),
  ],
  electric: [engine(null, [4, 735], null)],
  hydrogen: [engine(null, [90, 150], null)],
};
