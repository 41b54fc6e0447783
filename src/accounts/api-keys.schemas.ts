import { Type, type Static } from '@sinclair/typebox';
import { Defaulted } from '../json-schema.js';
import { OwnerLimit } from './account.schemas.js';
import { SCOPES, type Scope } from '../principal.js';

/** A key's own limits, each within the account's plan (as asked, and as shown to its owner). */
export const keyLimitSchemas = {
  rate_limit_per_minute: OwnerLimit(
    'Requests per minute of this key, at most the plan’s; null: only the account’s limit.',
  ),
  rate_limit_per_hour: OwnerLimit(
    'Requests per hour of this key, at most the plan’s; null: only the account’s limit.',
  ),
  daily_credit_limit: OwnerLimit(
    'Credits this key may spend per UTC day, at most the plan’s; null: no limit of its own.',
  ),
};

const keyLimits = {
  rate_limit_per_minute: Type.Optional(keyLimitSchemas.rate_limit_per_minute),
  rate_limit_per_hour: Type.Optional(keyLimitSchemas.rate_limit_per_hour),
  daily_credit_limit: Type.Optional(keyLimitSchemas.daily_credit_limit),
};

/** What a key may do, as asked and as shown. */
export const keyScopeSchemas = {
  scopes: Type.Array(Type.Unsafe<Scope>({ type: 'string', enum: [...SCOPES] }), {
    minItems: 1,
    uniqueItems: true,
    description:
      '`search`: search the stock (POST /data/search, the tools); `stock:write`: write the stock and feeds of the seller `seller_id`, and only it. Open list: scopes may be added.',
  }),
  seller_id: Type.Union([Type.String({ pattern: '^[0-9]{1,18}$' }), Type.Null()], {
    description:
      'The seller (of this account) whose stock a `stock:write` key writes; null for a search-only key.',
  }),
};

/** Body of POST /api-keys: a new key's name, limits and scopes. */
export const NewApiKeySchema = Type.Object(
  {
    name: Defaulted(
      Type.String({
        minLength: 1,
        maxLength: 100,
        default: 'Chave de API',
        description: 'A name to recognize it by.',
      }),
    ),
    ...keyLimits,
    scopes: Type.Optional(keyScopeSchemas.scopes),
    seller_id: Type.Optional(keyScopeSchemas.seller_id),
  },
  {
    additionalProperties: false,
    description:
      'A new API key: its name, its own limits within the plan, and what it may do (default: search only).',
  },
);
export type NewApiKey = Static<typeof NewApiKeySchema>;

/** Body of PATCH /api-keys/:id: at least one of a key's name and limits. */
export const ApiKeyChangesSchema = Type.Object(
  { name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), ...keyLimits },
  {
    additionalProperties: false,
    minProperties: 1,
    description: 'What to change of a key: at least one field.',
  },
);
export type ApiKeyChanges = Static<typeof ApiKeyChangesSchema>;

/** Path of /api-keys/:id. */
export const ApiKeyIdSchema = Type.Object(
  { id: Type.String({ pattern: '^[0-9]{1,18}$', description: 'The key’s id (digits).' }) },
  { additionalProperties: false },
);
