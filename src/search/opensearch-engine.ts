import { Client, errors, type API } from '@opensearch-project/opensearch';
import { DependencyUnavailableError } from '../http/errors.js';
import type { Condition } from '../db/schema.js';
import {
  QueryNotSupportedError,
  type DetailedPriceStats,
  type FacetRequest,
  type FacetValue,
  type HistogramBucket,
  type PageRequest,
  type PriceStats,
  type PriceSummary,
  type SearchEngine,
  type SearchResult,
  type StockQuery,
} from './engine.js';
import { toHit, type StockSource } from './opensearch-documents.js';
import { MAX_RESULT_WINDOW, facetsBody, histogramBody, searchBody, statsBody } from './opensearch-queries.js';
import { histogramBounds, roundPrice } from './price-math.js';

/** The parts of the aggregation results this engine asks for (opensearch-queries.ts builds them). */
interface StatsValue {
  count: number;
  min: number | null;
  max: number | null;
  avg: number | null;
}
interface Bucket<K> {
  key: K;
  doc_count: number;
}
interface StatsAggregations {
  price: StatsValue;
  sellers: { value: number };
  by_condition: { buckets: (Bucket<Condition> & { price: StatsValue })[] };
  by_country?: { buckets: (Bucket<string> & { price: StatsValue })[] };
  percentiles?: { values: Record<string, number | null> };
}
interface SearchAnswer {
  hits: { total?: { value: number } | number; hits: { _source?: StockSource }[] };
  aggregations?: StatsAggregations;
}

export interface OpenSearchEngineOptions {
  /** the alias searches read (the indexer writes behind it) */
  index: string;
  /** per request; a slower cluster is reported as unavailable */
  requestTimeoutMs?: number;
}

/** Transport-level failures: the cluster did not answer (or answered "not now"). */
function isUnavailable(error: unknown): boolean {
  if (
    error instanceof errors.ConnectionError ||
    error instanceof errors.TimeoutError ||
    error instanceof errors.NoLivingConnectionsError ||
    error instanceof errors.RequestAbortedError
  )
    return true;
  return error instanceof errors.ResponseError && (error.statusCode ?? 0) >= 500;
}

const summary = (s: StatsValue): PriceSummary => ({
  count: s.count,
  priceMin: s.min ?? 0,
  priceMax: s.max ?? 0,
  priceAvg: roundPrice(s.avg ?? 0),
});

function priceStats(total: number, aggs: StatsAggregations | undefined): PriceStats {
  if (!aggs || total === 0) {
    return {
      totalResults: 0,
      priceMin: null,
      priceMax: null,
      priceAvg: null,
      totalSellers: 0,
      byCondition: {},
    };
  }
  const byCondition: PriceStats['byCondition'] = {};
  for (const b of aggs.by_condition.buckets) byCondition[b.key] = summary(b.price);
  return {
    totalResults: total,
    priceMin: aggs.price.min,
    priceMax: aggs.price.max,
    priceAvg: aggs.price.avg === null ? null : roundPrice(aggs.price.avg),
    totalSellers: aggs.sellers.value,
    byCondition,
  };
}

const totalOf = (answer: SearchAnswer): number => {
  const total = answer.hits.total;
  return typeof total === 'number' ? total : (total?.value ?? 0);
};

/**
 * Answers searches, statistics and stock-derived lists from an OpenSearch index kept in step with
 * Postgres by the indexer (indexer/). Same semantics as the Postgres engine; the contract suite in
 * test/contract runs against both.
 */
export class OpenSearchEngine implements SearchEngine {
  readonly name = 'opensearch' as const;
  private readonly index_: string;

  constructor(
    private readonly client: Client,
    options: OpenSearchEngineOptions,
  ) {
    this.index_ = options.index;
  }

  static connect(url: string, options: OpenSearchEngineOptions): OpenSearchEngine {
    const client = new Client({
      node: url,
      requestTimeout: options.requestTimeoutMs ?? 5_000,
      // A retry on another node is cheap; on a single-node cluster it only doubles the wait.
      maxRetries: 1,
    });
    return new OpenSearchEngine(client, options);
  }

  /** Every call to the cluster: transport failures become 503, nothing is charged. */
  private async call<T>(request: () => Promise<{ body: T }>): Promise<T> {
    try {
      return (await request()).body;
    } catch (error) {
      if (isUnavailable(error)) throw new DependencyUnavailableError('opensearch', error);
      throw error;
    }
  }

  private async searchRaw(body: API.Search_RequestBody): Promise<SearchAnswer> {
    const answer = await this.call(() => this.client.search({ index: this.index_, body }));
    // The response type is generic over the document; the requested shape is ours.
    return answer as unknown as SearchAnswer;
  }

  async search(query: StockQuery, page: PageRequest): Promise<SearchResult> {
    if (page.page * page.perPage > MAX_RESULT_WINDOW) {
      throw new QueryNotSupportedError(
        `A paginação está limitada aos primeiros ${MAX_RESULT_WINDOW} resultados; refine a pesquisa com filtros.`,
        // the code the request layer uses for the same limit (search-request.ts checks it first)
        'PAGE_OUT_OF_RANGE',
      );
    }
    const answer = await this.searchRaw(searchBody(query, page));
    const total = totalOf(answer);
    const items = answer.hits.hits.flatMap((h) => (h._source ? [toHit(h._source, query.reference)] : []));
    return { total, items, stats: priceStats(total, answer.aggregations) };
  }

  async stats(query: StockQuery): Promise<DetailedPriceStats> {
    const answer = await this.searchRaw(statsBody(query));
    const total = totalOf(answer);
    const base = priceStats(total, answer.aggregations);
    const aggs = answer.aggregations;
    if (!aggs || base.priceMin === null || base.priceMax === null) {
      return { ...base, priceMedian: null, priceP25: null, priceP75: null, histogram: [], byCountry: {} };
    }
    const byCountry: Record<string, PriceSummary> = {};
    for (const b of aggs.by_country?.buckets ?? []) byCountry[b.key] = summary(b.price);
    const pct = (p: string): number | null => {
      const v = aggs.percentiles?.values[p];
      return v === undefined || v === null ? null : roundPrice(v);
    };
    return {
      ...base,
      priceMedian: pct('50.0'),
      priceP25: pct('25.0'),
      priceP75: pct('75.0'),
      histogram: await this.histogram(query, base.priceMin, base.priceMax, total),
      byCountry,
    };
  }

  /** The buckets need the min and max first: a second request, only when there are results. */
  private async histogram(
    query: StockQuery,
    lo: number,
    hi: number,
    total: number,
  ): Promise<HistogramBucket[]> {
    const bounds = histogramBounds(lo, hi);
    if (bounds.length === 1) return [{ ...bounds[0]!, count: total }];
    const answer = (await this.searchRaw(histogramBody(query, bounds))) as unknown as {
      aggregations: { histogram: { buckets: { doc_count: number }[] } };
    };
    const counts = answer.aggregations.histogram.buckets;
    return bounds.map((b, i) => ({ ...b, count: counts[i]?.doc_count ?? 0 }));
  }

  async facets(request: FacetRequest): Promise<FacetValue[]> {
    const answer = (await this.searchRaw(facetsBody(request))) as unknown as {
      aggregations: {
        values: { buckets: (Bucket<string> & { spelling: { buckets: Bucket<string>[] } })[] };
      };
    };
    return answer.aggregations.values.buckets
      .filter((b) => b.key !== '')
      .map((b) => ({ value: b.spelling.buckets[0]?.key ?? b.key, count: b.doc_count }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  }

  async ping(): Promise<void> {
    const exists = await this.call(() => this.client.indices.existsAlias({ name: this.index_ }));
    // Up but without the alias (never reindexed): searches would fail, so not ready.
    if (!exists)
      throw new DependencyUnavailableError('opensearch', new Error(`alias ${this.index_} missing`));
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
