import { Type, type Static } from '@sinclair/typebox';

const CountryCode = Type.String({
  pattern: '^[A-Za-z]{2}$',
  description:
    'ISO 3166-1 alpha-2 code of the country the stock is in (PT, ES…); a line without a country is there.',
});

/** Body of POST /sellers: a seller profile of the account. */
export const NewSellerSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'The name buyers see.' }),
    country: CountryCode,
    city: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  },
  { additionalProperties: false, description: 'A seller profile: who sells the stock, and where it is.' },
);
export type NewSeller = Static<typeof NewSellerSchema>;

/** Body of PATCH /sellers/:id: at least one field of the profile. */
export const SellerChangesSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    country: Type.Optional(CountryCode),
    city: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1, description: 'What to change of a seller profile.' },
);
export type SellerChanges = Static<typeof SellerChangesSchema>;

/** Path of /sellers/:id. */
export const SellerIdSchema = Type.Object(
  { id: Type.String({ pattern: '^[0-9]{1,18}$', description: 'The seller’s id (digits).' }) },
  { additionalProperties: false },
);
