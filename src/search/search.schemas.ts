import { Type, type Static } from '@sinclair/typebox';
import { CONDITIONS, type Condition } from '../db/schema.js';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;
/** The highest price a stock item can have (numeric(12, 2)). */
export const MAX_PRICE = 9_999_999_999.99;

const text = (max: number, description: string) => Type.String({ minLength: 1, maxLength: max, description });

const partId = (description: string) => Type.Integer({ minimum: 1, maximum: 2_147_483_647, description });

const price = (description: string) => Type.Number({ minimum: 0, maximum: MAX_PRICE, description });

/** A stock item's condition: the search's filter and the items' `condicao`. */
export const ConditionSchema = Type.Unsafe<Condition>({
  type: 'string',
  enum: [...CONDITIONS],
  description:
    'A stock item’s condition: new, used in good state, used in acceptable state, reconditioned, for parts. Closed list.',
  'x-enum-descriptions': [
    'New',
    'Used, good condition',
    'Used, acceptable condition',
    'Reconditioned',
    'For parts (not working as a whole)',
  ],
});

/**
 * Request body of POST /data/search and /data/search/stats: the spec's fields plus the Portuguese
 * aliases. The same declaration is what ajv checks, what the OpenAPI document shows and the type the
 * handlers read.
 */
export const SearchBodySchema = Type.Object(
  {
    reference: Type.Optional(
      text(
        100,
        'OEM, aftermarket or generic reference. Spaces, `-`, `.`, `/`, `_` and case are ignored; the item’s own reference, its associated references and its cross-reference group all match.',
      ),
    ),
    vehicle_make: Type.Optional(text(100, 'Vehicle make, case and accents ignored.')),
    vehicle_model: Type.Optional(
      text(100, 'Vehicle model: whole words from the start ("Golf" finds "Golf VII", not "Golfinho").'),
    ),
    part_id: Type.Optional(partId('Part id in the parts catalog (GET /data/catalog/parts).')),
    text: Type.Optional(
      text(
        200,
        'Free text over title and description in any of the six languages: accents ignored, every word required, the last one as a prefix; results in order of relevance.',
      ),
    ),
    referencia: Type.Optional(
      text(100, 'The specification’s Portuguese name of `reference`: send one or the other.'),
    ),
    marca_veiculo: Type.Optional(
      text(100, 'The specification’s Portuguese name of `vehicle_make`: send one or the other.'),
    ),
    modelo_veiculo: Type.Optional(
      text(100, 'The specification’s Portuguese name of `vehicle_model`: send one or the other.'),
    ),
    parte_id: Type.Optional(
      partId('The specification’s Portuguese name of `part_id`: send one or the other.'),
    ),
    texto: Type.Optional(text(200, 'The specification’s Portuguese name of `text`: send one or the other.')),
    // an enum in the schema: a union of literals would be an anyOf, and its errors read differently
    condition: Type.Optional(ConditionSchema),
    is_oem: Type.Optional(Type.Boolean({ description: 'Only OEM parts.' })),
    is_aftermarket: Type.Optional(Type.Boolean({ description: 'Only aftermarket parts.' })),
    country: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z]{2}$',
        description: 'The seller’s country, ISO 3166-1 alpha-2 (`PT`, `ES`…).',
      }),
    ),
    price_min: Type.Optional(price('Lowest price, in EUR, at most two decimals.')),
    price_max: Type.Optional(price('Highest price, in EUR, at most two decimals.')),
    page: Type.Optional(
      Type.Integer({
        minimum: 1,
        default: 1,
        description: 'Page of results; `page` × `per_page` may reach at most the first 10,000 results.',
      }),
    ),
    per_page: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_PER_PAGE,
        default: DEFAULT_PER_PAGE,
        description: 'Results per page.',
      }),
    ),
    search_token: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        description:
          'The `search_token` of a first search, to fetch its other pages free for 10 minutes: send it with the same search fields. An expired, forged or mismatched token counts as none (charged as a first search; see X-Search-Token-Status). Ignored by the statistics.',
      }),
    ),
  },
  { additionalProperties: false, description: 'The search fields, filters and paging.' },
);

export type SearchBody = Static<typeof SearchBodySchema>;

/** The fields of which a search needs at least one (with their Portuguese names). */
const SEARCH_FIELDS = [
  'reference',
  'vehicle_make',
  'part_id',
  'text',
  'referencia',
  'marca_veiculo',
  'parte_id',
  'texto',
] as const;

/**
 * The body as /openapi.json shows it: the same fields, and the rule that at least one of the four
 * search fields is there, as a `not` (no search field at all is refused) that validators apply and
 * generators leave alone. Written as an anyOf of `required` branches, the rule makes TypeScript
 * clients refuse a body without one, but Java's generator then takes the four fields for required
 * and sends them as null (a 400 on every search). The service checks the rule itself, with its own
 * code (400 MISSING_SEARCH_FIELD), so it is not part of the body ajv checks.
 */
export const DocumentedSearchBodySchema = {
  ...SearchBodySchema,
  description:
    'A search: at least one of `reference`, `vehicle_make`, `part_id`, `text` (or their Portuguese names), else 400 `MISSING_SEARCH_FIELD`; the filters narrow it. `page`, `per_page` and `search_token` page it (the statistics ignore them).',
  not: {
    description: 'None of the search fields: refused with 400 MISSING_SEARCH_FIELD.',
    allOf: SEARCH_FIELDS.map((field) => ({ not: { required: [field] } })),
  },
};
