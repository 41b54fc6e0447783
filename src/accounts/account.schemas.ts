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
    name: Type.Optional(
      Type.Unsafe<string | null>({
        type: ['string', 'null'],
        maxLength: 100,
        description: 'null removes it.',
      }),
    ),
    /** null removes the limit */
    daily_credit_limit: Type.Optional(
      OwnerLimit(
        'Credits the account may spend per UTC day, at most the plan’s (400 `LIMIT_ABOVE_PLAN` otherwise); null: only the plan’s limit.',
      ),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description: 'What to change of the account: at least one field.',
  },
);
export type AccountChanges = Static<typeof AccountChangesSchema>;
