import { route, type AnyRoute, type RouteResponse } from '../http/route.js';
import type { Metrics } from '../metrics/metrics.js';
import type { ApiTag } from '../http/route.js';
import { DocumentedSearchBodySchema, SearchBodySchema } from './search.schemas.js';
import {
  presentSearch,
  presentStats,
  searchResponseSchema,
  searchSchemaNames,
  statsResponseSchema,
  tokenStatusSchema,
} from './search.views.js';
import type { SearchOutcome, SearchService, StatsOutcome } from './search-service.js';

/** A search's answer; also what an Idempotency-Key keeps of it (the same search_token included). */
const searchResponse = (outcome: SearchOutcome): RouteResponse => ({
  headers: { 'X-Search-Token-Status': outcome.tokenStatus },
  body: presentSearch(outcome),
});

const statsResponse = (outcome: StatsOutcome): RouteResponse => ({ body: presentStats(outcome) });

const TAG: ApiTag = {
  name: 'Search',
  description:
    'Search sellers’ stock by reference, vehicle, catalog part or free text, with price statistics over the whole result set. A first page with results costs 1 credit and returns a `search_token` that makes the other pages of the same search free for 10 minutes.',
};

/** Search errors beyond the body's own validation: what the rules of a search refuse, and credits. */
const SEARCH_ERRORS = [
  'MISSING_SEARCH_FIELD',
  'CONFLICTING_FIELDS',
  'INVALID_REFERENCE',
  'INVALID_TEXT',
  'INVALID_COUNTRY',
  'INVALID_PRICE',
  'INVALID_PRICE_RANGE',
  'INSUFFICIENT_CREDITS',
  'DAILY_LIMIT_REACHED',
  'ENGINE_BUSY',
] as const;

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
      scope: 'search',
      engineLane: 'pages',
      operationId: 'searchStock',
      summary: 'Search the stock',
      description:
        'At least one of `reference`, `vehicle_make`, `part_id`, `text` (400 `MISSING_SEARCH_FIELD` otherwise); the filters narrow the results and the statistics alike. ' +
        'Without `text`, results are in price order, then id; with it, in order of relevance.\n\n' +
        '**Cost.** A first page with results costs 1 credit and returns a `search_token`, valid 10 minutes, bound to the account and to the search fields (not to `page` or `per_page`). ' +
        'Send the same fields with the token and another `page`: the page is free (`credits_spent` 0). An expired, forged or mismatched token counts as none: the page is charged as a first search and a new token returned. ' +
        '`X-Search-Token-Status` says which (`valid`, `expired`, `invalid`, `mismatch`, `none`). A search without results costs nothing and returns no token. ' +
        'Not enough credits: 402 `INSUFFICIENT_CREDITS`, no results; a daily limit reached: 402 `DAILY_LIMIT_REACHED`.',
      tags: [TAG],
      schemas: searchSchemaNames,
      body: SearchBodySchema,
      documentedBody: DocumentedSearchBodySchema,
      idempotent: true,
      errors: [...SEARCH_ERRORS, 'PAGE_OUT_OF_RANGE'],
      responses: {
        200: {
          description: 'A page of results, with the statistics of the whole result set',
          schema: searchResponseSchema,
          headers: {
            'X-Search-Token-Status': {
              description: 'What the `search_token` sent counted as, and so what this page cost.',
              required: true,
              schema: tokenStatusSchema,
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
      scope: 'search',
      engineLane: 'analytics',
      operationId: 'getSearchStats',
      summary: 'Price statistics of a search',
      description:
        'The same body and validation as `searchStock` (`page`, `per_page` and `search_token` are ignored). Costs 1 credit when there are results, nothing without. ' +
        'Besides the search’s statistics: the median, the quartiles, a price histogram of up to 20 buckets and the results by country. ' +
        'A query’s statistics are reused for 30 seconds.',
      tags: [TAG],
      schemas: searchSchemaNames,
      body: SearchBodySchema,
      documentedBody: DocumentedSearchBodySchema,
      idempotent: true,
      errors: [...SEARCH_ERRORS],
      responses: {
        200: { description: 'Statistics over the whole result set', schema: statsResponseSchema },
      },
      handler: async ({ body, principal, log, idempotency }) => {
        const outcome = await search.stats(principal, body, idempotency?.alongside(statsResponse));
        spent(log, 'stats', outcome.creditsSpent, outcome.stats.totalResults);
        return statsResponse(outcome);
      },
    }),
  ];
}
