import { Type, type Static } from '@sinclair/typebox';
import { Defaulted } from '../json-schema.js';
import { PageParameter } from '../paging.js';

/** `seller`: which seller's stock; an API key with `stock:write` may leave it out (its own). */
export const SellerParameter = Type.Optional(
  Type.String({
    pattern: '^[0-9]{1,18}$',
    description:
      'The seller (GET /sellers); required with a session, optional with a `stock:write` key (its own).',
  }),
);

export const SellerQuerySchema = Type.Object({ seller: SellerParameter }, { additionalProperties: false });

/** Path of /stock/items/:sku. */
export const SkuParamsSchema = Type.Object(
  {
    sku: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'The seller’s own identifier of the item.',
    }),
  },
  { additionalProperties: false },
);

const Text = (maxLength: number, description: string) => Type.String({ maxLength, description });
const OptionalText = (maxLength: number, description: string) =>
  Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()], { description }));

/** Body of PUT /stock/items/:sku: the whole item, as a feed's line has it. */
export const StockItemBodySchema = Type.Object(
  {
    reference: Text(100, 'The part’s reference (OEM or aftermarket), as written on it.'),
    title: Text(500, 'What buyers read first.'),
    description: Type.Optional(Text(2000, 'Free text.')),
    condition: Type.String({
      description:
        'novo, usado_bom, usado_aceitavel, recondicionado, para_pecas — or the usual English and Spanish words (new, used, refurbished, for parts, nuevo…).',
      examples: ['novo'],
    }),
    price: Type.Number({ minimum: 0, description: 'At most two decimals.' }),
    currency: Type.Optional(Type.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217; default EUR.' })),
    quantity: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'Default 1.' })),
    is_oem: Type.Optional(Type.Boolean()),
    is_aftermarket: Type.Optional(Type.Boolean()),
    vehicle_make: OptionalText(200, 'The vehicle’s make, as the catalog names it.'),
    vehicle_model: OptionalText(200, 'The vehicle’s model.'),
    vehicle_variant: OptionalText(200, 'The vehicle’s variant.'),
    part_id: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'A catalog part.' }),
    ),
    country: Type.Optional(
      Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2; default: the seller’s.' }),
    ),
    references: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        maxItems: 50,
        description: 'Associated references (equivalents) it is also found by.',
      }),
    ),
  },
  { additionalProperties: false, description: 'A stock item, whole: what PUT creates or replaces.' },
);
export type StockItemBody = Static<typeof StockItemBodySchema>;

/** Body of PATCH /stock/items/:sku: the price and/or the quantity. */
export const StockItemChangesSchema = Type.Object(
  {
    price: Type.Optional(Type.Number({ minimum: 0, description: 'At most two decimals.' })),
    quantity: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647 })),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description: 'A new price and/or quantity (after a sale).',
  },
);

export const ItemListQuerySchema = Type.Object(
  {
    seller: SellerParameter,
    sku: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Only the item with this SKU.' }),
    ),
    page: PageParameter,
    per_page: Defaulted(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  },
  { additionalProperties: false },
);
