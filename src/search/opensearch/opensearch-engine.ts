import type { Client } from '@opensearch-project/opensearch';
import type { ClusterConnection } from '../../config.js';
import { DependencyUnavailableError } from '../../errors.js';
import type {
  DetailedPriceStats,
  FacetRequest,
  FacetValue,
  PageAfter,
  PageAfterResult,
  PageRequest,
  PriceStats,
  SearchEngine,
  SearchResult,
  StockQuery,
} from '../engine.js';
import { toCents } from '../price-math.js';
import { promiseCache, type PromiseCache } from '../promise-cache.js';
import {
  aggregatedOver,
  priceStats,
  totalOf,
  type Bucket,
  type PriceField,
  type SearchAnswer,
} from './answers.js';
import { ClusterCalls, DEFAULT_BUDGET_MS } from './cluster-calls.js';
import { createClusterClient } from './cluster-client.js';
import { detailedStats } from './detailed-stats.js';
import { toHit } from './documents.js';
import { PriceAnchors } from './price-anchors.js';
import {
  COUNTED_APART_ABOVE,
  COUNTED_APART_OFFSETS_BELOW,
  countBody,
  countUpToHitBody,
  facetsBody,
  pageAfterBody,
  pageBody,
  pageAfterHitBody,
  PRICES_READ_AT_ONCE,
  searchBody,
  searchPreference,
  searchStatsBody,
} from './queries.js';

export { DEFAULT_BUDGET_MS } from './cluster-calls.js';

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
   * a page beside kept statistics of more than this many items is counted apart (COUNTED_APART_ABOVE);
   * tests lower it to take that way with a small fixture
   */
  countedApartAbove?: number;
  /**
   * a page beside kept statistics that starts at or past this offset is read after a hit its query's
   * pages reached before it, when one is known (COUNTED_APART_OFFSETS_BELOW); tests lower it to
   * take that way with a small fixture
   */
  fromHitAtOffset?: number;
  /**
   * What one search, statistics or list may take in all, however many requests it makes to the
   * cluster: past it the caller gets 503 and the cluster is told to stop (OPENSEARCH_TIMEOUT_MS).
   */
  budgetMs?: number;
}

/**
 * A query's search statistics, the price field they were aggregated over (its pages sort by it), and
 * the hits its pages in price order reached (learned as they are served).
 */
interface KnownStats {
  stats: PriceStats;
  prices: PriceField;
  anchors: PriceAnchors;
}

/** A query keeps one hit reached per this many ranks (up to the result window: fifty). */
const ANCHOR_BUCKET_RANKS = 200;

/** Queries whose search statistics are kept at most (a few hundred bytes each; a few KB paged deep). */
const KNOWN_QUERIES = 20_000;

/**
 * Answers searches, statistics and stock-derived lists from an OpenSearch index kept in step with
 * PostgreSQL by the indexer (indexer/). Same semantics as the Postgres engine; the contract suite in
 * test/contract runs against both. Its requests go through ClusterCalls (the time budget, the
 * failures that are 503); the detailed statistics are detailed-stats.ts.
 */
export class OpenSearchEngine implements SearchEngine {
  readonly name = 'opensearch' as const;
  private readonly cluster: ClusterCalls;
  private readonly pricesReadAtOnce: number;
  private readonly countedApartAbove: number;
  private readonly fromHitAtOffset: number;
  /**
   * A query's search statistics, kept for a few seconds as on the Postgres engine: they aggregate
   * the whole result set (the sellers' count is the costly part), a page is twenty hits, and
   * integrators page through and repeat popular searches. Each later page is asked with its exact
   * total, and the kept figures are used only while the total agrees (the stock changed
   * otherwise): they are computed again, in the same request as the page.
   */
  private readonly knownStats: PromiseCache<KnownStats> | null;
  private readonly facetsCache: PromiseCache<FacetValue[]> | null;

  constructor(
    private readonly client: Client,
    options: OpenSearchEngineOptions,
  ) {
    this.cluster = new ClusterCalls(client, options.index, options.budgetMs ?? DEFAULT_BUDGET_MS);
    this.pricesReadAtOnce = options.pricesReadAtOnce ?? PRICES_READ_AT_ONCE;
    this.countedApartAbove = options.countedApartAbove ?? COUNTED_APART_ABOVE;
    this.fromHitAtOffset = options.fromHitAtOffset ?? COUNTED_APART_OFFSETS_BELOW;
    const ttl = (options.statsCacheSeconds ?? 0) * 1000;
    this.knownStats = promiseCache(ttl, { maxEntries: KNOWN_QUERIES });
    this.facetsCache = promiseCache(ttl, { maxEntries: 2_000 });
  }

  /** `connection`: the configuration's (nodes, credentials, CA), or an address list (tests). */
  static connect(connection: ClusterConnection | string, options: OpenSearchEngineOptions): OpenSearchEngine {
    const client = createClusterClient(connection, {
      requestTimeout: options.budgetMs ?? DEFAULT_BUDGET_MS,
      // The client's own retry would give the next attempt a whole timeout again (past the
      // caller's budget) and would repeat a search that timed out, still running on its node.
      // ClusterCalls moves to the next node itself, only when the connection failed, and only
      // within what is left of the budget.
      maxRetries: 0,
    });
    return new OpenSearchEngine(client, options);
  }

  async search(query: StockQuery, page: PageRequest): Promise<SearchResult> {
    const deadline = this.cluster.deadline();
    const key = searchPreference(query);
    // kept statistics, even ones still being computed by an earlier request of the same query
    const known = await this.knownStats?.get(key)?.catch(() => null);
    if (known) {
      const beside = await this.pageBeside(known, query, page, deadline);
      if (beside) return this.learned(known, query, page, beside);
    }
    const computed = this.firstPage(query, page, deadline);
    // kept while the cache keeps them, a failure forgotten (no one else awaits it without a cache)
    const knowing = this.knownStats?.set(
      key,
      computed.then((answer) => ({
        stats: priceStats(totalOf(answer), answer.aggregations),
        prices: aggregatedOver(answer),
        anchors: new PriceAnchors(ANCHOR_BUCKET_RANKS),
      })),
    );
    const answer = await computed;
    const total = totalOf(answer);
    const result = {
      total,
      stats: priceStats(total, answer.aggregations),
      ...this.page(answer, query, aggregatedOver(answer)),
    };
    return knowing ? this.learned(await knowing, query, page, result) : result;
  }

  /** `result`, its last hit in price order kept, at its rank, for later jumps of its query. */
  private learned(
    known: KnownStats,
    query: StockQuery,
    page: PageRequest,
    result: SearchResult,
  ): SearchResult {
    const last = result.last?.values;
    if (last && query.text === undefined && known.prices === 'price_cents') {
      const rank = (page.page - 1) * page.perPage + result.items.length - 1;
      known.anchors.add({ rank, values: [last[0]!, last[1]!] });
    }
    return result;
  }

  /**
   * A page with its search statistics. A text search's page is asked apart from them, in the same
   * round trip: ranked uncounted, the page skips what cannot enter it, and the statistics count and
   * aggregate the matches without scoring them, where one search would score every match in every
   * language for the sake of the total. In price order one search does both: the aggregations read
   * every price anyway, and a second search would match every item again.
   */
  private firstPage(query: StockQuery, page: PageRequest, deadline: number): Promise<SearchAnswer> {
    if (query.text !== undefined) {
      return this.cluster.searchPageApartFromStats(
        (prices) => ({ page: pageBody(query, page, prices), stats: searchStatsBody(query, prices) }),
        deadline,
        query,
      );
    }
    return this.cluster.searchWithStats(
      (prices) => searchBody(query, page, { withStats: true, prices }),
      deadline,
      query,
    );
  }

  /**
   * A page beside its query's kept statistics, or null when its exact total no longer agrees with
   * them (the stock changed since: they are computed again). Sorted by the price field they were
   * aggregated over (`price` says an index of an older mapping, without `price_cents`, until its
   * rebuild). A large result set's page in price order, among its first ones, is asked uncounted,
   * so the cluster stops sorting at the page (pageBody), and its total by a count of its own in the
   * same round trip.
   */
  private async pageBeside(
    known: KnownStats,
    query: StockQuery,
    page: PageRequest,
    deadline: number,
  ): Promise<SearchResult | null> {
    const { stats, prices } = known;
    const { answer, total } =
      (await this.pageAfterHit(known, query, page, deadline)) ??
      (await this.pageAndTotal(query, page, prices, stats.totalResults, deadline));
    return stats.totalResults === total ? { total, stats, ...this.page(answer, query, prices) } : null;
  }

  /**
   * A deep page in price order (a jump with the search token) read after the highest hit its query's
   * pages reached before it (pageAfterHitBody), in one msearch with the set's count and the count of
   * the items up to that hit: the page is asked from the offset left if the hit is still at its
   * rank. If not (the stock changed under it), the page is asked again from the offset the count
   * leaves, or, when more items than the page's offset now come before the hit, as any other page
   * (null; also when no hit before it is known).
   */
  private async pageAfterHit(
    { prices, anchors }: KnownStats,
    query: StockQuery,
    page: PageRequest,
    deadline: number,
  ): Promise<{ answer: SearchAnswer; total: number } | null> {
    const offset = (page.page - 1) * page.perPage;
    if (offset < this.fromHitAtOffset || query.text !== undefined || prices !== 'price_cents') return null;
    const hit = anchors.before(offset);
    if (!hit) return null;
    const [count, upTo, read] = await this.cluster.searchMany(
      [
        countBody(query),
        countUpToHitBody(query, hit.values),
        pageAfterHitBody(query, page, hit.values, hit.rank + 1),
      ],
      deadline,
      query,
    );
    const before = totalOf(upTo!);
    if (before > offset) return null;
    const answer =
      before === hit.rank + 1
        ? read!
        : await this.cluster.search(pageAfterHitBody(query, page, hit.values, before), deadline, query);
    return { answer, total: totalOf(count!) };
  }

  /**
   * A page sorted by `prices` and its exact total: one counted search, or (a set of more than
   * countedApartAbove items said `expected`, among its first pages) an uncounted page, which skips
   * what cannot enter it in price or relevance order (pageBody), and a count in one msearch.
   */
  private async pageAndTotal(
    query: StockQuery,
    page: PageRequest,
    prices: PriceField,
    expected: number,
    deadline: number,
  ): Promise<{ answer: SearchAnswer; total: number }> {
    const countedApart =
      prices === 'price_cents' &&
      expected > this.countedApartAbove &&
      (page.page - 1) * page.perPage < COUNTED_APART_OFFSETS_BELOW;
    if (countedApart) {
      const [answer, count] = await this.cluster.searchMany(
        [pageBody(query, page), countBody(query)],
        deadline,
        query,
      );
      return { answer: answer!, total: totalOf(count!) };
    }
    const answer = await this.cluster.search(
      searchBody(query, page, { withStats: false, prices }),
      deadline,
      query,
    );
    return { answer, total: totalOf(answer) };
  }

  async pageAfter(query: StockQuery, { after, perPage }: PageAfter): Promise<PageAfterResult> {
    const answer = await this.cluster.search(
      pageAfterBody(query, after.values, perPage),
      this.cluster.deadline(),
      query,
    );
    return this.page(answer, query, 'price_cents');
  }

  /**
   * The page's hits, and the sort values of its last one with the price in whole cents (what
   * pageAfterBody sorts on), from a page sorted by `price_cents` or by `price` (euros, as doubles).
   */
  private page(answer: SearchAnswer, query: StockQuery, sortedBy: PriceField): PageAfterResult {
    const hits = answer.hits.hits;
    const items = hits.flatMap((h) => (h._source ? [toHit(h._source, query.reference)] : []));
    const sort = hits[hits.length - 1]?.sort;
    if (!sort) return { items };
    // [score,] price, id
    const values = sort.map((v, i) => (i === sort.length - 2 && sortedBy === 'price' ? toCents(v) : v));
    return { items, last: { engine: this.name, values } };
  }

  stats(query: StockQuery): Promise<DetailedPriceStats> {
    return detailedStats(this.cluster, query, this.pricesReadAtOnce);
  }

  facets(request: FacetRequest): Promise<FacetValue[]> {
    const compute = async () => {
      const answer = (await this.cluster.search(
        facetsBody(request),
        this.cluster.deadline(),
        request,
      )) as unknown as {
        aggregations: {
          values: { buckets: (Bucket<string> & { spelling: { buckets: Bucket<string>[] } })[] };
        };
      };
      return answer.aggregations.values.buckets
        .filter((b) => b.key !== '')
        .map((b) => ({ value: b.spelling.buckets[0]?.key ?? b.key, count: b.doc_count }))
        .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    };
    return this.facetsCache?.getOrCompute(searchPreference(request), compute) ?? compute();
  }

  async ping(): Promise<void> {
    // Up but without the alias (never reindexed): searches would fail, so not ready.
    if (!(await this.cluster.aliasExists())) {
      throw new DependencyUnavailableError('opensearch', new Error('alias missing'));
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
