import { Type, type Static } from '@sinclair/typebox';

/**
 * A limit an owner sets within the account's plan (see assertWithinPlan): a positive number, or
 * null for none of its own.
 */
export const OwnerLimit = (description: string) =>
  Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 1, maximum: 1_000_000, description });

/** Body of PATCH /account: what the owner may change of the account. */
export const AccountChangesSchema = Type.Object(
  {
    name: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 100 })),
    /** null removes the limit */
    daily_credit_limit: Type.Optional(
      OwnerLimit(
        'Créditos que a conta pode gastar por dia (UTC), no máximo os do plano; null = só o limite do plano',
      ),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type AccountChanges = Static<typeof AccountChangesSchema>;
