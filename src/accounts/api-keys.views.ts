import { dateTimeSchema, iso } from './account.views.js';
import type { ApiKeyView, CreatedApiKey } from './api-keys.js';
import { keyLimitSchemas, keyScopeSchemas } from './api-keys.schemas.js';

const nullableDateTime = { type: ['string', 'null'], format: 'date-time' };

const apiKeyViewProperties = {
  id: { type: 'string' },
  name: { type: 'string' },
  prefix: { type: 'string', description: 'The key’s first characters, to recognize it by.' },
  ...keyLimitSchemas,
  ...keyScopeSchemas,
  created_at: dateTimeSchema,
  last_used_at: nullableDateTime,
  revoked_at: nullableDateTime,
};

/** A key as its owner sees it: never the key itself nor its hash. */
export const apiKeyViewSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'An API key as its owner sees it: never the key itself.',
  required: Object.keys(apiKeyViewProperties),
  properties: apiKeyViewProperties,
};

/** A key just created: the only answer that holds the key itself. */
export const createdApiKeySchema = {
  type: 'object',
  additionalProperties: false,
  description: 'An API key just created: the only answer that holds the key itself.',
  required: ['key', ...Object.keys(apiKeyViewProperties)],
  properties: {
    key: {
      type: 'string',
      description: 'The whole key (`psk_…`), for X-API-Key: shown only in this answer, kept only as a hash.',
    },
    ...apiKeyViewProperties,
  },
};

export const apiKeyView = (k: ApiKeyView) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  rate_limit_per_minute: k.rate_limit_per_minute,
  rate_limit_per_hour: k.rate_limit_per_hour,
  daily_credit_limit: k.daily_credit_limit,
  scopes: k.scopes,
  seller_id: k.seller_id,
  created_at: iso(k.created_at),
  last_used_at: iso(k.last_used_at),
  revoked_at: iso(k.revoked_at),
});

export const createdKeyView = (k: CreatedApiKey) => ({
  key: k.key,
  ...apiKeyView({ ...k, last_used_at: null, revoked_at: null }),
});
