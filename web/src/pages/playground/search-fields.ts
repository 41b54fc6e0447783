/**
 * The playground's search fields and the request body they make. Imports nothing: the curl
 * command's unit test (test/unit/curl-command.test.ts) runs it under Node, outside the dashboard.
 */

/** The search fields as typed; empty ones are left out of the body. */
export interface SearchFields {
  reference: string;
  text: string;
  make: string;
  model: string;
  /** the catalog part's name as typed; the body carries the id of the part of that name */
  part: string;
  condition: string;
  country: string;
  price_min: string;
  price_max: string;
  per_page: string;
}

/** The request field each search field fills (the name the API's refusals use). */
export const API_FIELD: Record<keyof SearchFields, string> = {
  reference: 'reference',
  text: 'text',
  make: 'vehicle_make',
  model: 'vehicle_model',
  part: 'part_id',
  condition: 'condition',
  country: 'country',
  price_min: 'price_min',
  price_max: 'price_max',
  per_page: 'per_page',
};

export const EMPTY_FIELDS: SearchFields = {
  reference: '',
  text: '',
  make: '',
  model: '',
  part: '',
  condition: '',
  country: '',
  price_min: '',
  price_max: '',
  per_page: '20',
};

/** The body of `POST /data/search` (and of its statistics) for the fields as typed. */
export function searchBody(
  fields: SearchFields,
  parts: { id: number; name: string }[],
): Record<string, unknown> {
  const part = parts.find((p) => p.name === fields.part);
  const body: Record<string, unknown> = {
    reference: fields.reference || undefined,
    text: fields.text || undefined,
    vehicle_make: fields.make || undefined,
    vehicle_model: fields.model || undefined,
    part_id: part?.id,
    condition: fields.condition || undefined,
    country: fields.country || undefined,
    price_min: fields.price_min ? Number(fields.price_min) : undefined,
    price_max: fields.price_max ? Number(fields.price_max) : undefined,
    per_page: fields.per_page ? Number(fields.per_page) : undefined,
  };
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}
