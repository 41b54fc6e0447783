import { creditHistory } from '../../credits/history.js';
import { spentToday } from '../../credits/ledger.js';
import { activePackages } from '../../credits/payments.js';
import type { LedgerKind } from '../../db/schema.js';
import type { Services } from '../../services.js';
import { invalid } from '../../errors.js';
import { legacyRoute, type AnyRoute } from '../route.js';
import { PageParameter as PAGE_PARAMETER } from '../../paging.js';

const balanceSchema = {
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

/** A credit package as the API shows it (also inside a purchase). */
export const packageSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'credits', 'price_eur'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    credits: { type: 'integer', minimum: 1 },
    price_eur: { type: 'number' },
  },
};

const packagesSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'packages'],
  properties: { success: { const: true }, packages: { type: 'array', items: packageSchema } },
};

const LEDGER_KINDS = ['signup', 'search', 'stats', 'purchase', 'adjustment'];

const historyQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    from: { type: 'string', format: 'date-time', description: 'Desde (inclusive), ISO-8601' },
    to: { type: 'string', format: 'date-time', description: 'Até (exclusive), ISO-8601' },
    kind: { type: 'string', enum: LEDGER_KINDS },
    page: PAGE_PARAMETER,
    per_page: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  },
};

const historySchema = {
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

interface HistoryQuery {
  from?: string;
  to?: string;
  kind?: LedgerKind;
  page: number;
  per_page: number;
}

/** The lower of two limits, where null is none. */
const lowerLimit = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));

export function creditsRoutes({ db, clock }: Services): AnyRoute[] {
  return [
    legacyRoute<unknown, unknown, unknown, 'bearer'>({
      method: 'get',
      path: '/data/credits/balance',
      auth: 'bearer',
      summary: 'Saldo de créditos de pesquisa',
      tags: ['Créditos'],
      responses: { 200: { description: 'Saldo', schema: balanceSchema } },
      handler: async ({ principal }) => {
        const account = await db
          .selectFrom('accounts')
          .select(['credits', 'daily_credit_limit'])
          .where('id', '=', principal.accountId)
          .executeTakeFirstOrThrow();
        return {
          body: {
            success: true,
            credits: account.credits,
            daily_credit_limit: lowerLimit(account.daily_credit_limit, principal.plan.dailyCredits),
            spent_today: await spentToday(db, principal.accountId, clock.now()),
          },
        };
      },
    }),
    legacyRoute({
      method: 'get',
      path: '/data/credits/packages',
      auth: 'public',
      summary: 'Pacotes de créditos à venda',
      tags: ['Créditos'],
      cacheSeconds: 300,
      responses: { 200: { description: 'Pacotes', schema: packagesSchema } },
      handler: async () => {
        const rows = await activePackages(db);
        return {
          body: { success: true, packages: rows.map((p) => ({ ...p, price_eur: Number(p.price_eur) })) },
        };
      },
    }),
    legacyRoute<unknown, HistoryQuery, unknown, 'bearer'>({
      method: 'get',
      path: '/data/credits/history',
      auth: 'bearer',
      summary: 'Histórico de pesquisas e de consumo de créditos',
      description:
        'Mais recentes primeiro. Inclui pesquisas gratuitas (sem resultados ou com search_token válido).',
      tags: ['Créditos'],
      query: historyQuerySchema,
      responses: { 200: { description: 'Página do histórico', schema: historySchema } },
      handler: async ({ principal, query }) => {
        const from = query.from ? new Date(query.from) : undefined;
        const to = query.to ? new Date(query.to) : undefined;
        if (from && to && from >= to)
          throw invalid('O parâmetro from deve ser anterior a to.', 'INVALID_DATE_RANGE');
        const { total, entries } = await creditHistory(db, principal.accountId, {
          ...(from ? { from } : {}),
          ...(to ? { to } : {}),
          ...(query.kind ? { kind: query.kind } : {}),
          page: query.page,
          perPage: query.per_page,
        });
        return {
          body: {
            success: true,
            total,
            page: query.page,
            per_page: query.per_page,
            total_pages: Math.ceil(total / query.per_page),
            results: entries,
          },
        };
      },
    }),
  ];
}
