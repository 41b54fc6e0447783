import { route, type AnyRoute, type RouteResponse } from '../http/route.js';
import type { Metrics } from '../metrics/metrics.js';
import { SearchBodySchema } from './search.schemas.js';
import { presentSearch, presentStats, searchResponseSchema, statsResponseSchema } from './search.views.js';
import type { SearchOutcome, SearchService, StatsOutcome } from './search-service.js';

/** A search's answer; also what an Idempotency-Key keeps of it (the same search_token included). */
const searchResponse = (outcome: SearchOutcome): RouteResponse => ({
  headers: { 'X-Search-Token-Status': outcome.tokenStatus },
  body: presentSearch(outcome),
});

const statsResponse = (outcome: StatsOutcome): RouteResponse => ({ body: presentStats(outcome) });

export interface SearchRouteServices {
  search: SearchService;
  metrics: Metrics;
}

export function searchRoutes({ search, metrics }: SearchRouteServices): AnyRoute[] {
  /** What a request spent, on its log line and in the credits counter. */
  const spent = (log: Record<string, unknown>, kind: 'search' | 'stats', credits: number, total: number) => {
    log.credits_spent = credits;
    log.total = total;
    if (credits) metrics.creditsCharged.inc({ kind }, credits);
  };
  return [
    route({
      method: 'post',
      path: '/data/search',
      auth: 'either',
      summary: 'Pesquisa de stock de peças',
      description:
        'Pelo menos um de reference, vehicle_make, part_id ou text. A primeira página com resultados custa 1 crédito e devolve um search_token; ' +
        'as páginas pedidas com esse token (válido 10 minutos, mesmos campos de pesquisa) não custam créditos. Uma pesquisa sem resultados não custa nada. ' +
        'O cabeçalho X-Search-Token-Status indica valid|expired|invalid|mismatch|none.',
      tags: ['Pesquisa'],
      body: SearchBodySchema,
      idempotent: true,
      errors: [402],
      responses: {
        200: {
          description: 'Página de resultados com estatísticas',
          schema: searchResponseSchema,
          headers: {
            'X-Search-Token-Status': {
              description:
                'O search_token enviado: valid (página grátis), expired, invalid ou mismatch (cobrado como primeira pesquisa), none (não enviado)',
              schema: { type: 'string', enum: ['valid', 'expired', 'invalid', 'mismatch', 'none'] },
            },
          },
        },
      },
      handler: async ({ body, principal, log, idempotency }) => {
        const outcome = await search.search(principal, body, idempotency?.alongside(searchResponse));
        spent(log, 'search', outcome.creditsSpent, outcome.result.total);
        return searchResponse(outcome);
      },
    }),
    route({
      method: 'post',
      path: '/data/search/stats',
      auth: 'either',
      summary: 'Estatísticas de preço de uma pesquisa',
      description:
        'Mesmo corpo e validação que /data/search (page, per_page e search_token são ignorados). Custa 1 crédito quando há resultados. ' +
        'Além das estatísticas da pesquisa: mediana, p25/p75, histograma de preços (até 20 intervalos) e by_country.',
      tags: ['Pesquisa'],
      body: SearchBodySchema,
      idempotent: true,
      errors: [402],
      responses: {
        200: { description: 'Estatísticas sobre todo o conjunto de resultados', schema: statsResponseSchema },
      },
      handler: async ({ body, principal, log, idempotency }) => {
        const outcome = await search.stats(principal, body, idempotency?.alongside(statsResponse));
        spent(log, 'stats', outcome.creditsSpent, outcome.stats.totalResults);
        return statsResponse(outcome);
      },
    }),
  ];
}
