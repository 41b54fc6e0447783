import type { CreditBalance } from './credits-service.js';
import { LEDGER_KINDS } from './credits.schemas.js';

export const balanceSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'credits', 'daily_credit_limit', 'spent_today'],
  properties: {
    success: { const: true },
    credits: { type: 'integer', minimum: 0 },
    daily_credit_limit: {
      type: ['integer', 'null'],
      description:
        'Créditos que a conta pode gastar por dia: o menor entre o seu limite diário e o do plano; null = sem limite',
    },
    spent_today: { type: 'integer', minimum: 0, description: 'Créditos gastos hoje (dia UTC)' },
  },
};

export const balanceView = (balance: CreditBalance) => ({
  success: true,
  credits: balance.credits,
  daily_credit_limit: balance.dailyCreditLimit,
  spent_today: balance.spentToday,
});

export const historySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'total', 'page', 'per_page', 'total_pages', 'results'],
  properties: {
    success: { const: true },
    total: { type: 'integer', minimum: 0 },
    page: { type: 'integer', minimum: 1 },
    per_page: { type: 'integer', minimum: 1 },
    total_pages: { type: 'integer', minimum: 0 },
    results: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'kind', 'credits', 'balance_after', 'created_at', 'search'],
        properties: {
          id: { type: 'string' },
          kind: { enum: LEDGER_KINDS },
          credits: {
            type: 'integer',
            description: 'Variação do saldo (negativa num gasto; 0 numa pesquisa gratuita)',
          },
          balance_after: { type: ['integer', 'null'] },
          created_at: { type: 'string', format: 'date-time' },
          search: {
            type: ['object', 'null'],
            required: ['query', 'query_summary', 'total', 'page', 'token_status'],
            properties: {
              query: { type: 'object' },
              query_summary: { type: 'string' },
              total: { type: 'integer' },
              page: { type: 'integer' },
              token_status: { type: 'string' },
            },
          },
        },
      },
    },
  },
};
