import { route, type AnyRoute } from '../http/route.js';
import type { CreditsService } from './credits-service.js';
import { HistoryQuerySchema } from './credits.schemas.js';
import { balanceSchema, balanceView, historySchema } from './credits.views.js';

/** The account's balance and history (the packages and purchases: src/payments). */
export function creditsRoutes({ credits }: { credits: CreditsService }): AnyRoute[] {
  return [
    route({
      method: 'get',
      path: '/data/credits/balance',
      auth: 'bearer',
      summary: 'Saldo de créditos de pesquisa',
      tags: ['Créditos'],
      responses: { 200: { description: 'Saldo', schema: balanceSchema } },
      handler: async ({ principal }) => ({ body: balanceView(await credits.balance(principal)) }),
    }),
    route({
      method: 'get',
      path: '/data/credits/history',
      auth: 'bearer',
      summary: 'Histórico de pesquisas e de consumo de créditos',
      description:
        'Mais recentes primeiro. Inclui pesquisas gratuitas (sem resultados ou com search_token válido).',
      tags: ['Créditos'],
      query: HistoryQuerySchema,
      responses: { 200: { description: 'Página do histórico', schema: historySchema } },
      handler: async ({ principal, query }) => {
        const { total, entries } = await credits.history(principal, {
          ...(query.from ? { from: new Date(query.from) } : {}),
          ...(query.to ? { to: new Date(query.to) } : {}),
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
