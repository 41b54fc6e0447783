import type { JsonSchema } from '../json-schema.js';
import type { Page } from './catalog-queries.js';
import type { ListQuery } from './catalog.schemas.js';

const nullable = (type: string) => ({ type: [type, 'null'] });
const object = (properties: Record<string, unknown>, optional: string[] = []): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
  properties,
});

/** The paged answer of every catalog list. */
export const pageSchema = (item: JsonSchema): JsonSchema =>
  object({
    success: { const: true },
    total: { type: 'integer', minimum: 0 },
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

export const partItem = object({
  id: { type: 'integer' },
  name: { type: 'string' },
  type: { type: 'string' },
  group: { type: 'string' },
  location: nullable('string'),
  side: nullable('string'),
});

/** A coded list's entry; only languages have a name of their own ("Deutsch"). */
export const codedItem = object(
  { code: { type: 'string' }, name: { type: 'string' }, native_name: { type: 'string' } },
  ['native_name'],
);

/** A brand, model or variant in stock, and how many items. */
export const stockItem = object({ name: { type: 'string' }, items: { type: 'integer', minimum: 1 } });

export const makeItem = object({
  id: { type: 'integer' },
  name: { type: 'string' },
  country_code: nullable('string'),
});

export const modelItem = object({
  id: { type: 'integer' },
  make_id: { type: 'integer' },
  name: { type: 'string' },
  year_from: nullable('integer'),
  year_to: nullable('integer'),
});

export const variantItem = object({
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

export const engineItem = object({
  id: { type: 'integer' },
  variant_id: { type: 'integer' },
  code: { type: 'string' },
  fuel: nullable('string'),
  displacement_cc: nullable('integer'),
  power_kw: nullable('integer'),
  power_hp: nullable('integer'),
  cylinders: nullable('integer'),
});

export const countryItem = object({ code: { type: 'string' }, name: { type: 'string' } });
