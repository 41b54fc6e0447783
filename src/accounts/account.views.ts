import type { AccountRow } from './accounts.js';
import type { AccountPlan } from '../principal.js';

/** A date as the API writes it: ISO-8601 (UTC), or null. */
export const iso = (date: Date | null) => (date ? date.toISOString() : null);

export const dateTimeSchema = { type: 'string', format: 'date-time' };

export const accountSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'email', 'name', 'credits', 'daily_credit_limit', 'created_at'],
  description: 'An account: its credits and its own daily credit limit.',
  properties: {
    id: { type: 'string' },
    email: { type: 'string', description: 'Normalized: trimmed, lower-case.' },
    name: { type: ['string', 'null'] },
    credits: { type: 'integer', minimum: 0, description: 'The balance.' },
    daily_credit_limit: {
      type: ['integer', 'null'],
      description:
        'Credits the account may spend per UTC day, set by its owner; null: only the plan’s limit.',
    },
    created_at: dateTimeSchema,
  },
};

export const accountView = (a: AccountRow) => ({ ...a, created_at: iso(a.created_at) });

export const planSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['rate_limit_per_minute', 'rate_limit_per_hour', 'daily_credits'],
  description:
    'The account’s plan, set by the provider: limits of the whole account (all its keys and sessions together). A key’s limits and the account’s own daily limit may only be equal or lower.',
  properties: {
    rate_limit_per_minute: { type: 'integer', minimum: 1 },
    rate_limit_per_hour: { type: 'integer', minimum: 1 },
    daily_credits: {
      type: ['integer', 'null'],
      minimum: 1,
      description: 'Credits the account may spend per UTC day; null: no daily limit.',
    },
  },
};

export const planView = (plan: AccountPlan) => ({
  rate_limit_per_minute: plan.perMinute,
  rate_limit_per_hour: plan.perHour,
  daily_credits: plan.dailyCredits,
});
