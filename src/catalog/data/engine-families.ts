import type { FuelCode } from './vehicle-classes.js';

/**
 * How a group of makes names its engines ("2.0 TDI", "1.5 dCi", "1.2 PureTech") and which fuels it
 * sells where a model's class would allow more (the German groups sold plug-in hybrids, not full
 * hybrids). A label is the one in use from a year on: a 1995 Peugeot is an HDi-less "1.9 D".
 */
export interface EngineFamily {
  /** the fuels of a class's defaults the family sells (letters of FUEL_LETTERS) */
  fuels: string;
  /** per fuel, [first year, label] in year order; without one, DEFAULT_LABELS */
  labels: Partial<Record<FuelCode, readonly (readonly [number, string])[]>>;
  /** the first year of its full hybrids, when earlier than the market's */
  hybridSince?: number;
  /** the displacements (cc, of ENGINE_OPTIONS) of its petrol and diesel engines; without, any */
  displacements?: Partial<Record<'petrol' | 'diesel', readonly number[]>>;
}

const DEFAULT_LABELS: Record<FuelCode, string> = {
  petrol: '',
  diesel: 'D',
  hybrid: 'Hybrid',
  plugin_hybrid: 'Plug-in Hybrid',
  lpg: 'GPL',
  electric: '',
  hydrogen: '',
};

const FAMILIES = {
  generic: { fuels: 'pdhxelz', labels: {} },
  vag: {
    fuels: 'pdxel',
    displacements: {
      petrol: [998, 1198, 1368, 1498, 1598, 1798, 1984, 2480, 2995],
      diesel: [1199, 1398, 1598, 1896, 1968, 2993],
    },
    labels: {
      petrol: [[2006, 'TSI']],
      diesel: [
        [0, 'D'],
        [1993, 'TDI'],
      ],
      plugin_hybrid: [[0, 'eHybrid']],
    },
  },
  audi: {
    fuels: 'pdxel',
    displacements: {
      petrol: [998, 1368, 1498, 1798, 1984, 2480, 2995, 3996, 5204],
      diesel: [1598, 1896, 1968, 2993],
    },
    labels: {
      petrol: [[2004, 'TFSI']],
      diesel: [
        [0, 'D'],
        [1990, 'TDI'],
      ],
      plugin_hybrid: [[0, 'TFSI e']],
    },
  },
  bmw: {
    fuels: 'pdxe',
    displacements: { petrol: [1498, 1598, 1984, 2480, 2995, 4395], diesel: [1499, 1598, 1968, 2993] },
    labels: { diesel: [[0, 'd']] },
  },
  mercedes: {
    fuels: 'pdxe',
    displacements: { petrol: [1368, 1598, 1984, 2995, 3996, 5998], diesel: [1461, 2143, 2993] },
    labels: {
      diesel: [
        [0, 'D'],
        [1998, 'CDI'],
      ],
    },
  },
  psa: {
    fuels: 'pdxel',
    displacements: { petrol: [1198, 1368, 1598, 1798, 1984], diesel: [1398, 1499, 1560, 1997, 2179] },
    labels: {
      petrol: [
        [2006, 'VTi'],
        [2013, 'PureTech'],
      ],
      diesel: [
        [0, 'D'],
        [1998, 'HDi'],
        [2014, 'BlueHDi'],
      ],
    },
  },
  renault: {
    fuels: 'pdhxel',
    displacements: { petrol: [998, 1198, 1368, 1598, 1984], diesel: [1461, 1598, 1997, 2287] },
    hybridSince: 2020,
    labels: {
      petrol: [
        [1998, '16v'],
        [2012, 'TCe'],
      ],
      diesel: [
        [0, 'D'],
        [2000, 'dCi'],
      ],
      hybrid: [[0, 'E-Tech']],
      plugin_hybrid: [[0, 'E-Tech Plug-in']],
    },
  },
  ford: {
    fuels: 'pdhxel',
    displacements: {
      petrol: [998, 1198, 1368, 1498, 1598, 1798, 1984, 2480],
      diesel: [1398, 1499, 1560, 1997, 2179],
    },
    labels: {
      petrol: [[2012, 'EcoBoost']],
      diesel: [
        [0, 'D'],
        [1999, 'TDCi'],
        [2016, 'EcoBlue'],
      ],
    },
  },
  opel: {
    fuels: 'pdxel',
    displacements: { petrol: [998, 1198, 1368, 1598, 1798, 1984], diesel: [1248, 1598, 1968, 2287] },
    labels: {
      petrol: [
        [1993, '16v'],
        [2009, 'Turbo'],
      ],
      diesel: [
        [0, 'D'],
        [1997, 'DTI'],
        [2003, 'CDTI'],
      ],
    },
  },
  fiat: {
    fuels: 'pdxel',
    displacements: { petrol: [998, 1198, 1368, 1598, 1798, 1984], diesel: [1248, 1598, 1968, 2287] },
    labels: {
      petrol: [
        [1995, '16v'],
        [2007, 'T-Jet'],
      ],
      diesel: [
        [0, 'D'],
        [1997, 'JTD'],
        [2004, 'Multijet'],
      ],
    },
  },
  toyota: {
    fuels: 'pdhxelz',
    displacements: {
      petrol: [998, 1198, 1368, 1498, 1598, 1798, 1984, 2480, 2995, 4395],
      diesel: [1398, 1997, 2179, 2993],
    },
    hybridSince: 2010,
    labels: {
      petrol: [[1996, 'VVT-i']],
      diesel: [
        [0, 'D'],
        [2000, 'D-4D'],
      ],
    },
  },
  nissan: {
    fuels: 'pdhxel',
    displacements: { petrol: [1198, 1368, 1598, 1798, 1984, 2480, 2995], diesel: [1461, 1598, 1997, 2488] },
    labels: {
      petrol: [[2013, 'DIG-T']],
      diesel: [
        [0, 'D'],
        [2001, 'dCi'],
      ],
      hybrid: [[0, 'e-Power']],
    },
  },
  honda: {
    fuels: 'pdhxe',
    displacements: { petrol: [998, 1198, 1368, 1498, 1598, 1798, 1984], diesel: [1598, 2179] },
    hybridSince: 2009,
    labels: {
      petrol: [[2001, 'i-VTEC']],
      diesel: [
        [0, 'D'],
        [2004, 'i-CTDi'],
        [2009, 'i-DTEC'],
      ],
      hybrid: [
        [0, 'Hybrid'],
        [2019, 'e:HEV'],
      ],
    },
  },
  hyundai: {
    fuels: 'pdhxel',
    displacements: { petrol: [998, 1198, 1368, 1598, 1984, 2480], diesel: [1398, 1598, 1997, 2179] },
    labels: {
      petrol: [
        [2011, 'GDi'],
        [2016, 'T-GDi'],
      ],
      diesel: [
        [0, 'D'],
        [2001, 'CRDi'],
      ],
    },
  },
  mazda: {
    fuels: 'pdxe',
    displacements: { petrol: [1368, 1498, 1798, 1984, 2480], diesel: [1499, 1560, 1997, 2179] },
    labels: {
      petrol: [[2011, 'Skyactiv-G']],
      diesel: [
        [0, 'D'],
        [2002, 'MZR-CD'],
        [2012, 'Skyactiv-D'],
      ],
    },
  },
  volvo: {
    fuels: 'pdxe',
    displacements: { petrol: [1498, 1598, 1798, 1984, 2480, 2995], diesel: [1560, 1968, 2488] },
    labels: {},
  },
} satisfies Record<string, EngineFamily>;

export type FamilyName = keyof typeof FAMILIES;
export const ENGINE_FAMILIES: Record<FamilyName, EngineFamily> = FAMILIES;

export const isFamilyName = (name: string): name is FamilyName => Object.hasOwn(ENGINE_FAMILIES, name);

/** The family's label for an engine of `fuel` first sold in `year` ("" when it has none). */
export function engineLabel(family: EngineFamily, fuel: FuelCode, year: number): string {
  const labels = family.labels[fuel];
  if (!labels) return DEFAULT_LABELS[fuel];
  let label = '';
  for (const [since, name] of labels) if (since <= year) label = name;
  return label;
}
