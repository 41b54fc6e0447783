import type { JsonSchema } from '../json-schema.js';
import type { Page } from './catalog-queries.js';
import type { ListQuery } from './catalog.schemas.js';

const nullable = (type: string, description?: string) => ({
  type: [type, 'null'],
  ...(description ? { description } : {}),
});
const object = (
  description: string,
  properties: Record<string, unknown>,
  optional: string[] = [],
): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  description,
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
  properties,
});

/** The paged answer of every catalog list. */
export const pageSchema = (item: JsonSchema): JsonSchema =>
  object('A page of a catalog list.', {
    success: { const: true },
    total: { type: 'integer', minimum: 0, description: 'Entries in all (with `q`: those that match).' },
    page: { type: 'integer', minimum: 1 },
    total_pages: { type: 'integer', minimum: 0 },
    results: { type: 'array', items: item },
  });

export const pageView = <T>(q: ListQuery, page: Page<T>) => ({
  success: true,
  total: page.total,
  page: q.page,
  total_pages: Math.ceil(page.total / q.per_page),
  results: page.results,
});

export const partItem = object('A part of the parts catalog, named in the language asked.', {
  id: { type: 'integer', description: 'What a search’s `part_id` takes.' },
  name: { type: 'string' },
  type: { type: 'string', description: 'A code of GET /data/catalog/types.' },
  group: { type: 'string', description: 'A code of GET /data/catalog/groups.' },
  location: nullable('string', 'A code of GET /data/catalog/locations.'),
  side: nullable('string', 'A code of GET /data/catalog/sides.'),
});

/** A coded list's entry; only languages have a name of their own ("Deutsch"). */
export const codedItem = object(
  'An entry of a coded list: its code and its name in the language asked.',
  {
    code: { type: 'string' },
    name: { type: 'string' },
    native_name: {
      type: 'string',
      description: 'Languages only: the name in the language itself (Deutsch).',
    },
  },
  ['native_name'],
);

/** A brand, model or variant in stock, and how many items. */
export const stockItem = object('A make, model or variant found in stock, and how many items.', {
  name: { type: 'string' },
  items: { type: 'integer', minimum: 1, description: 'Items in stock.' },
});

export const makeItem = object('A vehicle make of the catalog.', {
  id: { type: 'integer' },
  name: { type: 'string' },
  country_code: nullable('string', 'Where the make comes from, ISO 3166-1 alpha-2.'),
});

export const modelItem = object('A vehicle model of the catalog: a generation of a model line (Golf VII).', {
  id: { type: 'integer' },
  make_id: { type: 'integer' },
  name: { type: 'string' },
  year_from: nullable('integer'),
  year_to: nullable('integer'),
});

export const variantItem = object('A variant of a model, with its technical data.', {
  id: { type: 'integer' },
  model_id: { type: 'integer' },
  name: { type: 'string' },
  year_from: nullable('integer'),
  year_to: nullable('integer'),
  body_type: nullable('string'),
  fuel: nullable('string'),
  power_kw: nullable('integer'),
  power_hp: nullable('integer'),
  displacement_cc: nullable('integer'),
  engine_codes: { type: 'array', items: { type: 'string' } },
});

export const engineItem = object('An engine of a variant.', {
  id: { type: 'integer' },
  variant_id: { type: 'integer' },
  code: { type: 'string' },
  fuel: nullable('string'),
  displacement_cc: nullable('integer'),
  power_kw: nullable('integer'),
  power_hp: nullable('integer'),
  cylinders: nullable('integer'),
});

export const countryItem = object('A country: ISO 3166-1 alpha-2 code and name in the language asked.', {
  code: { type: 'string' },
  name: { type: 'string' },
});

/** The catalogs' shapes by the names generated clients give them. */
export const catalogSchemaNames = {
  CatalogPart: partItem,
  CatalogPartPage: pageSchema(partItem),
  CodedEntry: codedItem,
  CodedEntryPage: pageSchema(codedItem),
  StockFacet: stockItem,
  StockFacetPage: pageSchema(stockItem),
  VehicleMake: makeItem,
  VehicleMakePage: pageSchema(makeItem),
  VehicleModel: modelItem,
  VehicleModelPage: pageSchema(modelItem),
  VehicleVariant: variantItem,
  VehicleVariantPage: pageSchema(variantItem),
  VehicleEngine: engineItem,
  VehicleEnginePage: pageSchema(engineItem),
  Country: countryItem,
  CountryPage: pageSchema(countryItem),
};
