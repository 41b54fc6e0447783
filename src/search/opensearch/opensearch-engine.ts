import { Client, errors, type API } from '@opensearch-project/opensearch';
import { LRUCache } from 'lru-cache';
import { DependencyUnavailableError } from '../../errors.js';
import type {
  DetailedPriceStats,
  FacetRequest,
  FacetValue,
  PageRequest,
  PriceStats,
  PriceSummary,
  SearchEngine,
  SearchResult,
  StockQuery,
} from '../engine.js';
import {
  bucketCounts,
  completeAnswer,
  estimatedPercentile,
  IncompleteAnswerError,
  priceAtRank,
  priceStats,
  sortedPrices,
  summary,
  totalOf,
  type Bucket,
  type MsearchError,
  type SearchAnswer,
} from './answers.js';
import { toHit } from './documents.js';
import {
  facetsBody,
  histogramBody,
  priceAtRankBody,
  PRICES_READ_AT_ONCE,
  searchBody,
  searchPreference,
  statsBody,
} from './queries.js';
import { bucketPrices, histogramBounds, quartileRanks, quartilesFromRanks } from '../price-math.js';
import { MAX_RESULT_WINDOW } from '../result-window.js';
import { shared } from '../shared-computations.js';

export interface OpenSearchEngineOptions {
  /** the alias searches read (the indexer writes behind it) */
  index: string;
  /** seconds a query's search statistics and a stock-derived list are reused; 0 never */
  statsCacheSeconds?: number;
  /**
   * a result set of at most this many items has its prices read in the statistics request itself
   * (PRICES_READ_AT_ONCE); tests lower it to reach the second round trip with a small fixture
   */
  pricesReadAtOnce?: number;
  /**
   * What one search, statistics or list may take in all, however many requests it makes to the
   * cluster: past it the caller gets 503 and the cluster is told to stop (OPENSEARCH_TIMEOUT_MS).
   */
  budgetMs?: number;
}

export const DEFAULT_BUDGET_MS = 5_000;

/** Queries whose search statistics are kept at most (a few hundred bytes each). */
const KNOWN_QUERIES = 20_000;

/**
 * The cluster cannot answer now: unreachable, too slow, a 5xx, a 429 (a full search queue or a
 * tripped circuit breaker: "not now") or the alias missing (no index built yet, or an operator
 * deleted it). The caller gets 503 and is charged nothing; none of these is the request's fault.
 */
function isUnavailable(error: unknown): boolean {
  if (
    error instanceof errors.ConnectionError ||
    error instanceof errors.TimeoutError ||
    error instanceof errors.NoLivingConnectionsError ||
    error instanceof errors.RequestAbortedError ||
    error instanceof IncompleteAnswerError
  )
    return true;
  if (!(error instanceof errors.ResponseError)) return false;
  const type = (error.body as { error?: { type?: string } } | undefined)?.error?.type;
  return unavailableStatus(error.statusCode ?? 0, type);
}

const unavailableStatus = (status: number, type: string | undefined): boolean =>
  status >= 500 || status === 429 || (status === 404 && type === 'index_not_found_exception');

/** One failed search of an msearch, as the error a lone search would have thrown. */
function msearchFailure(failed: MsearchError): Error {
  const status = failed.status ?? 500;
  const detail = new Error(`search failed (${status}): ${failed.error?.type} ${failed.error?.reason}`);
  return unavailableStatus(status, failed.error?.type)
    ? new DependencyUnavailableError('opensearch', detail)
    : detail;
}

/**
 * Answers searches, statistics and stock-derived lists from an OpenSearch index kept in step with
 * Postgres by the indexer (indexer/). Same semantics as the Postgres engine; the contract suite in
 * test/contract runs against both.
 */
export class OpenSearchEngine implements SearchEngine {
  readonly name = 'opensearch' as const;
  private readonly index_: string;
  private readonly budgetMs: number;
  private readonly pricesReadAtOnce: number;
  /**
   * A query's search statistics, kept for a few seconds as on the Postgres engine: they aggregate
   * the whole result set (the sellers' count is the costly part), a page is twenty hits, and
   * integrators page through and repeat popular searches. Each later page is asked with its exact
   * total, and the kept figures are used only while the total agrees (the stock changed
   * otherwise): they are computed again, in the same request as the page.
   */
  private readonly knownStats: LRUCache<string, Promise<PriceStats>> | null;
  private readonly facetsCache: LRUCache<string, Promise<FacetValue[]>> | null;

  constructor(
    private readonly client: Client,
    options: OpenSearchEngineOptions,
  ) {
    this.index_ = options.index;
    this.budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
    this.pricesReadAtOnce = options.pricesReadAtOnce ?? PRICES_READ_AT_ONCE;
    const ttl = (options.statsCacheSeconds ?? 0) * 1000;
    this.knownStats = ttl > 0 ? new LRUCache({ max: KNOWN_QUERIES, ttl }) : null;
    this.facetsCache = ttl > 0 ? new LRUCache({ max: 2_000, ttl }) : null;
  }

  static connect(url: string, options: OpenSearchEngineOptions): OpenSearchEngine {
    const client = new Client({
      node: url,
      requestTimeout: options.budgetMs ?? DEFAULT_BUDGET_MS,
      // A retry goes to the same node (one URL, no sniffing) and would start a second search
      // while the first may still run there: the caller's budget covers one attempt.
      maxRetries: 0,
    });
    return new OpenSearchEngine(client, options);
  }

  /** Every call to the cluster: failures that are not the request's fault become 503. */
  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (isUnavailable(error)) throw new DependencyUnavailableError('opensearch', error);
      throw error;
    }
  }

  /**
   * What is left of the caller's budget, for one request to the cluster. The cluster is given the
   * same bound twice: `timeout` makes it stop collecting (its answer then says timed_out, and is
   * refused), and `cancel_after_time_interval` cancels the search task, so no work goes on for a
   * caller who already has its 503. The client gives up at the same moment and closes the
   * connection, which also cancels the task on the cluster.
   */
  private budgetLeft(deadline: number): number {
    const left = deadline - Date.now();
    if (left <= 0) throw new DependencyUnavailableError('opensearch', new Error('search budget spent'));
    return left;
  }

  private async searchRaw(
    body: API.Search_RequestBody,
    deadline: number,
    asked: StockQuery | FacetRequest,
  ): Promise<SearchAnswer> {
    const left = this.budgetLeft(deadline);
    return this.call(async () => {
      const answer = await this.client.search(
        {
          index: this.index_,
          body: { ...body, timeout: `${left}ms` },
          cancel_after_time_interval: `${left}ms`,
          // One copy of each shard per query, so every page of a search ranks on the same copy:
          // replicas can score a document differently (deleted documents not yet merged away),
          // and pages ordered by score would then overlap or skip.
          preference: searchPreference(asked),
        },
        { requestTimeout: left, maxRetries: 0 },
      );
      // The response type is generic over the document; the requested shape is ours.
      return completeAnswer(answer.body as unknown as SearchAnswer);
    });
  }

  /** Several searches of one query in one round trip (msearch), each answer checked as one alone. */
  private async searchMany(
    bodies: API.Search_RequestBody[],
    deadline: number,
    asked: StockQuery,
  ): Promise<SearchAnswer[]> {
    if (bodies.length === 0) return [];
    const left = this.budgetLeft(deadline);
    const header = { index: this.index_, preference: searchPreference(asked) };
    const answer = await this.call(async () => {
      const response = await this.client.msearch(
        {
          // (msearch takes no cancel_after_time_interval: each search's timeout, and the
          // connection the client closes at the deadline, stop it)
          body: bodies.flatMap((body) => [header, { ...body, timeout: `${left}ms` }]),
        },
        { requestTimeout: left, maxRetries: 0 },
      );
      return response.body as unknown as { responses: (SearchAnswer & MsearchError)[] };
    });
    return this.call(async () =>
      answer.responses.map((r) => {
        if (r.error) throw msearchFailure(r);
        return completeAnswer(r);
      }),
    );
  }

  private deadline(): number {
    return Date.now() + this.budgetMs;
  }

  async search(query: StockQuery, page: PageRequest): Promise<SearchResult> {
    const deadline = this.deadline();
    const key = searchPreference(query);
    const known = this.knownStats?.get(key);
    if (known) {
      // The page alone, beside its query's statistics (even ones still being computed); they are
      // used only while the page's exact total agrees with them (else the stock changed since).
      const [answer, stats] = await Promise.all([
        this.searchRaw(searchBody(query, page, { withStats: false }), deadline, query),
        known.catch(() => null),
      ]);
      const total = totalOf(answer);
      if (stats && stats.totalResults === total) return { total, items: this.hits(answer, query), stats };
    }
    const computed = this.searchRaw(searchBody(query, page, { withStats: true }), deadline, query);
    if (this.knownStats) {
      const stats = computed.then((answer) => priceStats(totalOf(answer), answer.aggregations));
      this.knownStats.set(key, stats);
      stats.catch(() => {
        if (this.knownStats!.peek(key) === stats) this.knownStats!.delete(key);
      });
    }
    const answer = await computed;
    const total = totalOf(answer);
    return { total, items: this.hits(answer, query), stats: priceStats(total, answer.aggregations) };
  }

  private hits(answer: SearchAnswer, query: StockQuery) {
    return answer.hits.hits.flatMap((h) => (h._source ? [toHit(h._source, query.reference)] : []));
  }

  /**
   * The figures of the whole result set; a small one has its prices read in the same request, in
   * order, and its quartiles and histogram computed from them. A larger one takes one more round
   * trip for what needs the min and max first: the histogram's buckets, and the quartiles, exact
   * (as PostgreSQL's percentile_cont computes them) from the prices at their ranks in price order
   * while the result set fits the result window, the cluster's t-digest estimates beyond it.
   */
  async stats(query: StockQuery): Promise<DetailedPriceStats> {
    const deadline = this.deadline();
    const answer = await this.searchRaw(statsBody(query, this.pricesReadAtOnce), deadline, query);
    const total = totalOf(answer);
    const base = priceStats(total, answer.aggregations);
    const aggs = answer.aggregations;
    if (!aggs || base.priceMin === null || base.priceMax === null) {
      return { ...base, priceMedian: null, priceP25: null, priceP75: null, histogram: [], byCountry: {} };
    }
    const byCountry: Record<string, PriceSummary> = {};
    for (const b of aggs.by_country?.buckets ?? []) byCountry[b.key] = summary(b.price);

    if (total <= this.pricesReadAtOnce) {
      const prices = sortedPrices(answer);
      const [p25, p50, p75] = quartilesFromRanks(total, new Map(prices.map((price, rank) => [rank, price])));
      const histogram = bucketPrices(prices, base.priceMin, base.priceMax);
      return { ...base, priceMedian: p50!, priceP25: p25!, priceP75: p75!, histogram, byCountry };
    }
    const bounds = histogramBounds(base.priceMin, base.priceMax);
    const ranks = total <= MAX_RESULT_WINDOW ? quartileRanks(total) : [];
    const answers = await this.searchMany(
      [
        ...(bounds.length > 1 ? [histogramBody(query, bounds)] : []),
        ...ranks.map((rank) => priceAtRankBody(query, rank)),
      ],
      deadline,
      query,
    );
    const histogram =
      bounds.length > 1 ? bucketCounts(bounds, answers.shift()!) : [{ ...bounds[0]!, count: total }];
    const [p25, p50, p75] = ranks.length
      ? quartilesFromRanks(total, new Map(ranks.map((rank, i) => [rank, priceAtRank(answers[i]!)])))
      : [25, 50, 75].map((p) => estimatedPercentile(aggs, p));
    return { ...base, priceMedian: p50!, priceP25: p25!, priceP75: p75!, histogram, byCountry };
  }

  async facets(request: FacetRequest): Promise<FacetValue[]> {
    const key = searchPreference(request);
    return shared(this.facetsCache, key, async () => {
      const answer = (await this.searchRaw(facetsBody(request), this.deadline(), request)) as unknown as {
        aggregations: {
          values: { buckets: (Bucket<string> & { spelling: { buckets: Bucket<string>[] } })[] };
        };
      };
      return answer.aggregations.values.buckets
        .filter((b) => b.key !== '')
        .map((b) => ({ value: b.spelling.buckets[0]?.key ?? b.key, count: b.doc_count }))
        .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    });
  }

  async ping(): Promise<void> {
    const exists = await this.call(
      async () => (await this.client.indices.existsAlias({ name: this.index_ })).body,
    );
    // Up but without the alias (never reindexed): searches would fail, so not ready.
    if (!exists)
      throw new DependencyUnavailableError('opensearch', new Error(`alias ${this.index_} missing`));
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
