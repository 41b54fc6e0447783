import { Type, type Static } from '@sinclair/typebox';
import { Defaulted } from '../json-schema.js';
import { OwnerLimit } from './account.schemas.js';

/** A key's own limits, each within the account's plan (as asked, and as shown to its owner). */
export const keyLimitSchemas = {
  rate_limit_per_minute: OwnerLimit(
    'Pedidos por minuto desta chave, no máximo o do plano da conta; null = só o limite da conta',
  ),
  rate_limit_per_hour: OwnerLimit(
    'Pedidos por hora desta chave, no máximo o do plano da conta; null = só o limite da conta',
  ),
  daily_credit_limit: OwnerLimit(
    'Créditos que esta chave pode gastar por dia (UTC), no máximo os do plano; null = sem limite próprio',
  ),
};

const keyLimits = {
  rate_limit_per_minute: Type.Optional(keyLimitSchemas.rate_limit_per_minute),
  rate_limit_per_hour: Type.Optional(keyLimitSchemas.rate_limit_per_hour),
  daily_credit_limit: Type.Optional(keyLimitSchemas.daily_credit_limit),
};

/** Body of POST /api-keys: a new key's name and limits. */
export const NewApiKeySchema = Type.Object(
  {
    name: Defaulted(Type.String({ minLength: 1, maxLength: 100, default: 'Chave de API' })),
    ...keyLimits,
  },
  { additionalProperties: false },
);
export type NewApiKey = Static<typeof NewApiKeySchema>;

/** Body of PATCH /api-keys/:id: at least one of a key's name and limits. */
export const ApiKeyChangesSchema = Type.Object(
  { name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), ...keyLimits },
  { additionalProperties: false, minProperties: 1 },
);
export type ApiKeyChanges = Static<typeof ApiKeyChangesSchema>;

/** Path of /api-keys/:id. */
export const ApiKeyIdSchema = Type.Object(
  { id: Type.String({ pattern: '^[0-9]{1,18}$', description: 'Id da chave (numérico)' }) },
  { additionalProperties: false },
);
