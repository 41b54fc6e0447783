import { searchBodySchema, type SearchBody } from '../../search/search-request.js';
import { createSearchService, type SearchOutcome, type StatsOutcome } from '../../search/search-service.js';
import type { Services } from '../../services.js';
import { legacyRoute, type AnyRoute, type RouteResponse } from '../route.js';
import {
  searchResponseSchema,
  serializeDetailedStats,
  serializeHit,
  serializeStats,
  statsResponseSchema,
} from '../search-response.js';

/** A search's answer; also what an Idempotency-Key keeps of it (the same search_token included). */
function searchResponse(outcome: SearchOutcome): RouteResponse {
  const { result } = outcome;
  return {
    headers: { 'X-Search-Token-Status': outcome.tokenStatus },
    body: {
      success: true,
      credits_spent: outcome.creditsSpent,
      credits_remaining: outcome.creditsRemaining,
      ...(outcome.token
        ? {
            search_token: outcome.token.token,
            search_token_expires_at: outcome.token.expiresAt.toISOString(),
          }
        : {}),
      total: result.total,
      page: outcome.page,
      per_page: outcome.perPage,
      total_pages: Math.ceil(result.total / outcome.perPage),
      stats: serializeStats(result.stats),
      results: result.items.map(serializeHit),
    },
  };
}

function statsResponse(outcome: StatsOutcome): RouteResponse {
  return {
    body: {
      success: true,
      credits_spent: outcome.creditsSpent,
      credits_remaining: outcome.creditsRemaining,
      stats: serializeDetailedStats(outcome.stats),
    },
  };
}

export function searchRoutes(services: Services): AnyRoute[] {
  const searchService = createSearchService(services);
  return [
    legacyRoute<SearchBody, unknown, unknown, 'either'>({
      method: 'post',
      path: '/data/search',
      auth: 'either',
      summary: 'Pesquisa de stock de peças',
      description:
        'Pelo menos um de reference, vehicle_make, part_id ou text. A primeira página com resultados custa 1 crédito e devolve um search_token; ' +
        'as páginas pedidas com esse token (válido 10 minutos, mesmos campos de pesquisa) não custam créditos. Uma pesquisa sem resultados não custa nada. ' +
        'O cabeçalho X-Search-Token-Status indica valid|expired|invalid|mismatch|none.',
      tags: ['Pesquisa'],
      body: searchBodySchema,
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
        const outcome = await searchService.search(principal, body, idempotency?.alongside(searchResponse));
        log.credits_spent = outcome.creditsSpent;
        log.total = outcome.result.total;
        if (outcome.creditsSpent)
          services.metrics.creditsCharged.inc({ kind: 'search' }, outcome.creditsSpent);
        return searchResponse(outcome);
      },
    }),
    legacyRoute<SearchBody, unknown, unknown, 'either'>({
      method: 'post',
      path: '/data/search/stats',
      auth: 'either',
      summary: 'Estatísticas de preço de uma pesquisa',
      description:
        'Mesmo corpo e validação que /data/search (page, per_page e search_token são ignorados). Custa 1 crédito quando há resultados. ' +
        'Além das estatísticas da pesquisa: mediana, p25/p75, histograma de preços (até 20 intervalos) e by_country.',
      tags: ['Pesquisa'],
      body: searchBodySchema,
      idempotent: true,
      errors: [402],
      responses: {
        200: { description: 'Estatísticas sobre todo o conjunto de resultados', schema: statsResponseSchema },
      },
      handler: async ({ body, principal, log, idempotency }) => {
        const outcome = await searchService.stats(principal, body, idempotency?.alongside(statsResponse));
        log.credits_spent = outcome.creditsSpent;
        log.total = outcome.stats.totalResults;
        if (outcome.creditsSpent)
          services.metrics.creditsCharged.inc({ kind: 'stats' }, outcome.creditsSpent);
        return statsResponse(outcome);
      },
    }),
  ];
}
