import type { AccountRow } from './accounts.js';
import type { AccountPlan } from '../principal.js';

/** A date as the API writes it: ISO-8601 (UTC), or null. */
export const iso = (date: Date | null) => (date ? date.toISOString() : null);

export const dateTimeSchema = { type: 'string', format: 'date-time' };

export const accountSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'email', 'name', 'credits', 'daily_credit_limit', 'created_at'],
  properties: {
    id: { type: 'string' },
    email: { type: 'string' },
    name: { type: ['string', 'null'] },
    credits: { type: 'integer', minimum: 0 },
    daily_credit_limit: { type: ['integer', 'null'], description: 'null = sem limite diário' },
    created_at: dateTimeSchema,
  },
};

export const accountView = (a: AccountRow) => ({ ...a, created_at: iso(a.created_at) });

export const planSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['rate_limit_per_minute', 'rate_limit_per_hour', 'daily_credits'],
  description:
    'O plano da conta, definido pelo fornecedor: limites de toda a conta (todas as chaves e sessões juntas); os limites de cada chave e o limite diário da conta só podem ser iguais ou menores',
  properties: {
    rate_limit_per_minute: { type: 'integer', minimum: 1 },
    rate_limit_per_hour: { type: 'integer', minimum: 1 },
    daily_credits: { type: ['integer', 'null'], minimum: 1, description: 'null = sem limite diário' },
  },
};

export const planView = (plan: AccountPlan) => ({
  rate_limit_per_minute: plan.perMinute,
  rate_limit_per_hour: plan.perHour,
  daily_credits: plan.dailyCredits,
});
