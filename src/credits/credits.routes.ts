import { route, type AnyRoute, type ApiTag } from '../http/route.js';
import type { CreditsService } from './credits-service.js';
import { HistoryQuerySchema } from './credits.schemas.js';
import { balanceSchema, balanceView, creditsSchemaNames, historySchema } from './credits.views.js';

/** Balance, history, packages and purchase (the last two: src/payments). */
export const CREDITS_TAG: ApiTag = {
  name: 'Credits',
  description:
    'Searches are paid in credits: 50 at registration, then bought in packages through a provider’s hosted checkout (credited once the payment is confirmed) or given by the operator. The balance, the history of every search and movement, and the purchase need a Bearer session.',
};

/** The account's balance and history (the packages and purchases: src/payments). */
export function creditsRoutes({ credits }: { credits: CreditsService }): AnyRoute[] {
  return [
    route({
      method: 'get',
      path: '/data/credits/balance',
      auth: 'bearer',
      operationId: 'getCreditBalance',
      summary: 'The credit balance',
      description: 'The balance, the daily credit limit in force and what was spent today (UTC day).',
      tags: [CREDITS_TAG],
      schemas: creditsSchemaNames,
      responses: { 200: { description: 'The balance', schema: balanceSchema } },
      handler: async ({ principal }) => ({ body: balanceView(await credits.balance(principal)) }),
    }),
    route({
      method: 'get',
      path: '/data/credits/history',
      auth: 'bearer',
      operationId: 'listCreditHistory',
      summary: 'The history of searches and credit movements',
      description:
        'Newest first: every search and statistics request, free ones too (no results, or a page with a valid `search_token`), with its query, total, page and token status; and every other movement (`signup`, `purchase`, `adjustment`). `from` must be before `to` (400 `INVALID_DATE_RANGE`).',
      tags: [CREDITS_TAG],
      schemas: creditsSchemaNames,
      query: HistoryQuerySchema,
      errors: ['INVALID_DATE_RANGE'],
      responses: { 200: { description: 'A page of the history', schema: historySchema } },
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
