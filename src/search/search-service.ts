import type { Principal } from '../principal.js';
import type { Clock } from '../clock.js';
import type { ChargeOutcome, SearchRecord, SearchRecorder } from '../credits/ledger.js';
import type { TransactionScope } from '../db/transaction-scope.js';
import type { DetailedPriceStats, PageRequest, SearchEngine, SearchResult, StockQuery } from './engine.js';
import { assertWithinResultWindow, MAX_RESULT_WINDOW } from './result-window.js';
import type { Continuation } from './search-continuation.js';
import type { SearchBody } from './search.schemas.js';
import { parseSearchBody } from './search-request.js';
import {
  checkSearchToken,
  issueSearchToken,
  searchTokenExpiry,
  type TokenCheck,
  type TokenStatus,
} from './search-token.js';

/** What a search costs: the spec's credit rules in one place. */
export const SEARCH_COST = 1;
export const STATS_COST = 1;

export interface SearchOutcome {
  result: SearchResult;
  page: number;
  perPage: number;
  creditsSpent: number;
  creditsRemaining: number;
  tokenStatus: TokenStatus;
  /**
   * present when the search has results: a token for the search (with the expiry of the one sent,
   * if valid) that also says where the next page starts
   */
  token?: { token: string; expiresAt: Date };
}

export interface StatsOutcome {
  stats: DetailedPriceStats;
  creditsSpent: number;
  creditsRemaining: number;
}

/**
 * The page asked: read after the previous page's last item when the token leads to it (its total and
 * statistics are the token's), else as a first page is, with its own figures.
 */
export async function searchPage(
  engine: SearchEngine,
  query: StockQuery,
  page: PageRequest,
  check: TokenCheck,
): Promise<SearchResult> {
  const next = check.next;
  if (next && next.page === page.page && next.perPage === page.perPage && next.after.engine === engine.name) {
    const read = await engine.pageAfter(query, { after: next.after, perPage: page.perPage });
    return { total: next.stats.totalResults, stats: next.stats, ...read };
  }
  return engine.search(query, page);
}

/** Where the page after this one starts, when there is one within the pages served. */
export function continuation({ page, perPage }: PageRequest, result: SearchResult): Continuation | undefined {
  const more = page * perPage < result.total && (page + 1) * perPage <= MAX_RESULT_WINDOW;
  return more && result.last
    ? { page: page + 1, perPage, after: result.last, stats: result.stats }
    : undefined;
}

export interface SearchServiceDependencies {
  engine: SearchEngine;
  clock: Clock;
  searchTokenSecret: string;
  /** where charges and history rows are written (its 402s say where more credits come from) */
  recorder: SearchRecorder;
}

export function createSearchService({
  engine,
  clock,
  searchTokenSecret,
  recorder,
}: SearchServiceDependencies) {
  /**
   * Records the request in the history with its charge, alone in the scope's transaction when there
   * is one, then shapes the answer from what the charge left.
   */
  const recordAndCharge = async <T>(
    principal: Principal,
    cost: number,
    record: SearchRecord,
    now: Date,
    scope: TransactionScope<T> | undefined,
    answer: (charge: ChargeOutcome) => T,
  ): Promise<T> =>
    scope
      ? scope.run(async (trx) => answer(await recorder.recordIn(trx, principal, cost, record, now)))
      : answer(await recorder.record(principal, cost, record, now));
  return {
    /**
     * Runs the search, then charges: the first page with results costs 1 credit; a page fetched
     * with a valid token, or a search without results, costs nothing. An expired, forged or
     * mismatched token counts as no token (charged as a first search, a new token issued).
     * The engine answers before anything is charged, so an engine failure costs nothing.
     * With a `scope`, the charge is written alone in the scope's transaction (see TransactionScope).
     */
    async search(
      principal: Principal,
      body: SearchBody,
      scope?: TransactionScope<SearchOutcome>,
    ): Promise<SearchOutcome> {
      const parsed = parseSearchBody(body);
      assertWithinResultWindow(parsed);
      const now = clock.now();
      const check = checkSearchToken(
        searchTokenSecret,
        parsed.searchToken,
        principal.accountId,
        parsed.fieldsHash,
        now,
      );
      const result = await searchPage(engine, parsed.query, parsed, check);
      const cost = result.total > 0 && check.status !== 'valid' ? SEARCH_COST : 0;
      const record: SearchRecord = {
        kind: 'search',
        query: parsed.canonical,
        summary: parsed.summary,
        total: result.total,
        page: parsed.page,
        perPage: parsed.perPage,
        tokenStatus: check.status,
      };
      let token: SearchOutcome['token'];
      if (result.total > 0) {
        const next = continuation(parsed, result);
        token = issueSearchToken(searchTokenSecret, {
          accountId: principal.accountId,
          fieldsHash: parsed.fieldsHash,
          expiresAt: check.status === 'valid' ? check.expiresAt! : searchTokenExpiry(now),
          ...(next ? { next } : {}),
        });
      }
      return recordAndCharge(principal, cost, record, now, scope, (charge) => ({
        result,
        page: parsed.page,
        perPage: parsed.perPage,
        creditsSpent: cost,
        creditsRemaining: charge.creditsRemaining,
        tokenStatus: check.status,
        ...(token ? { token } : {}),
      }));
    },

    /** Detailed price statistics over the whole result set: 1 credit when there are results. */
    async stats(
      principal: Principal,
      body: SearchBody,
      scope?: TransactionScope<StatsOutcome>,
    ): Promise<StatsOutcome> {
      const parsed = parseSearchBody(body);
      const now = clock.now();
      const stats = await engine.stats(parsed.query);
      const cost = stats.totalResults > 0 ? STATS_COST : 0;
      const record: SearchRecord = {
        kind: 'stats',
        query: parsed.canonical,
        summary: parsed.summary,
        total: stats.totalResults,
        page: 1,
        perPage: 0,
        tokenStatus: 'none',
      };
      return recordAndCharge(principal, cost, record, now, scope, (charge) => ({
        stats,
        creditsSpent: cost,
        creditsRemaining: charge.creditsRemaining,
      }));
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
