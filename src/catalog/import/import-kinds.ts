import type { ColumnValues } from '../bulk-insert.js';
import { LIST_KINDS, type ListKind } from '../catalog-lists.js';
import { LANGUAGES } from '../data/languages.js';

type Row = Record<string, unknown>;
type ColumnSpec = Record<string, [ColumnValues['type'], (row: Row) => unknown]>;

export interface ImportKind {
  table: string;
  /** columns that identify a row: re-importing replaces it */
  key: string[];
  schema: Record<string, unknown>;
  columns: ColumnSpec;
  /** the column that must point at an existing row of another catalog table */
  parent?: { column: string; table: string };
}

const names = {
  type: 'object',
  additionalProperties: false,
  required: [...LANGUAGES],
  properties: Object.fromEntries(LANGUAGES.map((l) => [l, { type: 'string', minLength: 1, maxLength: 200 }])),
};
const id = { type: 'integer', minimum: 1, maximum: 2147483647 };
const optionalInt = (min: number, max: number) => ({ type: 'integer', minimum: min, maximum: max });
const text = (max = 200) => ({ type: 'string', minLength: 1, maxLength: max });
const year = optionalInt(1900, 2100);

const object = (required: string[], properties: Record<string, unknown>) => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});

const value = (column: string) => (row: Row) => row[column] ?? null;
const json = (row: Row) => JSON.stringify(row.names);

const kinds: Record<string, ImportKind> = {
  parts: {
    table: 'catalog_parts',
    key: ['id'],
    schema: object(['id', 'code', 'group', 'type', 'names'], {
      id,
      code: text(100),
      group: text(50),
      type: text(50),
      location: text(50),
      side: { enum: ['left', 'right'] },
      names,
    }),
    columns: {
      id: ['int', value('id')],
      code: ['text', value('code')],
      group_code: ['text', value('group')],
      type_code: ['text', value('type')],
      location_code: ['text', value('location')],
      side_code: ['text', value('side')],
      names: ['jsonb', json],
    },
  },
  'vehicle-makes': {
    table: 'vehicle_makes',
    key: ['id'],
    schema: object(['id', 'name'], {
      id,
      name: text(),
      country_code: { type: 'string', pattern: '^[A-Z]{2}$' },
    }),
    columns: {
      id: ['int', value('id')],
      name: ['text', value('name')],
      country_code: ['text', value('country_code')],
    },
  },
  'vehicle-models': {
    table: 'vehicle_models',
    key: ['id'],
    parent: { column: 'make_id', table: 'vehicle_makes' },
    schema: object(['id', 'make_id', 'name'], {
      id,
      make_id: id,
      name: text(),
      year_from: year,
      year_to: year,
    }),
    columns: {
      id: ['int', value('id')],
      make_id: ['int', value('make_id')],
      name: ['text', value('name')],
      year_from: ['int', value('year_from')],
      year_to: ['int', value('year_to')],
    },
  },
  'vehicle-variants': {
    table: 'vehicle_variants',
    key: ['id'],
    parent: { column: 'model_id', table: 'vehicle_models' },
    schema: object(['id', 'model_id', 'name'], {
      id,
      model_id: id,
      name: text(),
      year_from: year,
      year_to: year,
      body_type: text(50),
      fuel: text(50),
      power_kw: optionalInt(1, 2000),
      power_hp: optionalInt(1, 3000),
      displacement_cc: optionalInt(1, 20000),
      engine_codes: { type: 'array', items: text(50), maxItems: 20 },
    }),
    columns: {
      id: ['int', value('id')],
      model_id: ['int', value('model_id')],
      name: ['text', value('name')],
      year_from: ['int', value('year_from')],
      year_to: ['int', value('year_to')],
      body_type: ['text', value('body_type')],
      fuel_code: ['text', value('fuel')],
      power_kw: ['int', value('power_kw')],
      power_hp: ['int', value('power_hp')],
      displacement_cc: ['int', value('displacement_cc')],
      engine_codes: ['text[]', (row) => ((row.engine_codes as string[] | undefined) ?? []).join(',')],
    },
  },
  'vehicle-engines': {
    table: 'vehicle_engines',
    key: ['id'],
    parent: { column: 'variant_id', table: 'vehicle_variants' },
    schema: object(['id', 'variant_id', 'code'], {
      id,
      variant_id: id,
      code: text(50),
      fuel: text(50),
      displacement_cc: optionalInt(1, 20000),
      power_kw: optionalInt(1, 2000),
      power_hp: optionalInt(1, 3000),
      cylinders: optionalInt(1, 24),
    }),
    columns: {
      id: ['int', value('id')],
      variant_id: ['int', value('variant_id')],
      code: ['text', value('code')],
      fuel_code: ['text', value('fuel')],
      displacement_cc: ['int', value('displacement_cc')],
      power_kw: ['int', value('power_kw')],
      power_hp: ['int', value('power_hp')],
      cylinders: ['int', value('cylinders')],
    },
  },
};

function listKind(kind: ListKind): ImportKind {
  return {
    table: 'catalog_lists',
    key: ['kind', 'code'],
    schema: object(['code', 'names'], { code: text(50), sort_order: optionalInt(0, 100000), names }),
    columns: {
      kind: ['text', () => kind],
      code: ['text', value('code')],
      sort_order: ['int', (row) => row.sort_order ?? 0],
      names: ['jsonb', json],
    },
  };
}

export const IMPORT_KINDS = [...Object.keys(kinds), ...LIST_KINDS];

export function importKind(kind: string): ImportKind | null {
  if (kinds[kind]) return kinds[kind];
  return (LIST_KINDS as readonly string[]).includes(kind) ? listKind(kind as ListKind) : null;
}

/**
 * CSV rows name their labels name_pt, name_en, ... and list engine codes separated by "|";
 * JSON Lines rows may do the same or carry `names` and `engine_codes` as they are.
 */
export function normalizeRecord(record: Row): Row {
  const out: Row = {};
  const labels: Record<string, unknown> = {};
  for (const [column, v] of Object.entries(record)) {
    const lang = /^name_(pt|en|es|fr|de|it)$/.exec(column)?.[1];
    if (lang) labels[lang] = v;
    else if (column === 'engine_codes' && typeof v === 'string')
      out[column] = v
        .split('|')
        .map((c) => c.trim())
        .filter(Boolean);
    else out[column] = v;
  }
  if (Object.keys(labels).length) out.names = { ...(out.names as object | undefined), ...labels };
  return out;
}
