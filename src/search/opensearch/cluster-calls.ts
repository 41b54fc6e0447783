import { errors, type API, type Client } from '@opensearch-project/opensearch';
import { DependencyUnavailableError } from '../../errors.js';
import type { FacetRequest, StockQuery } from '../engine.js';
import {
  completeAnswer,
  conditionsAndCountries,
  IncompleteAnswerError,
  lacksCents,
  type MsearchError,
  type PriceField,
  type SearchAnswer,
} from './answers.js';
import { searchPreference } from './queries.js';

export const DEFAULT_BUDGET_MS = 5_000;

/**
 * Whether a failure of the cluster is not the request's fault: unreachable, too slow, a 5xx, a 429
 * (a full search queue or a tripped circuit breaker: "not now"), the alias missing (no index built
 * yet, or an operator deleted it) or the API's credentials refused. The caller then gets 503 and is charged nothing.
 */
function isClusterUnavailable(error: unknown): boolean {
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
  status >= 500 ||
  status === 429 ||
  (status === 404 && type === 'index_not_found_exception') ||
  // the cluster refusing the API's own credentials (wrong, expired, or without the permission):
  // the deployment's fault, which no caller can fix by asking differently; /ready says so too
  status === 401 ||
  (status === 403 && type === 'security_exception');

/**
 * A failure of the node rather than of the cluster: the connection was refused, reset or dropped
 * (the node is down, restarting, or died mid-request), or TLS failed. The client has put that node
 * aside, so a new attempt goes to the next one. A timeout is not: the budget is spent, and the
 * search may still run there.
 */
const nodeFailed = (error: unknown): boolean => error instanceof errors.ConnectionError;

/** One failed search of an msearch, as the error a lone search would have thrown. */
function msearchFailure(failed: MsearchError): Error {
  const status = failed.status ?? 500;
  const detail = new Error(`search failed (${status}): ${failed.error?.type} ${failed.error?.reason}`);
  return unavailableStatus(status, failed.error?.type)
    ? new DependencyUnavailableError('opensearch', detail)
    : detail;
}

/**
 * Every request the engine makes to the cluster, within the time budget of the caller's request
 * (OPENSEARCH_TIMEOUT_MS) and with the cluster's failures mapped to 503. One search, statistics or
 * list may take the budget in all, however many requests it makes: each is given what is left.
 */
export class ClusterCalls {
  /** the nodes the client knows: how many attempts one request may make, one per node */
  private readonly nodes: number;

  constructor(
    private readonly client: Client,
    private readonly index: string,
    private readonly budgetMs: number,
  ) {
    this.nodes = Math.max(1, client.connectionPool.size);
  }

  /** When the caller's budget ends: taken once per search, statistics or list. */
  deadline(): number {
    return Date.now() + this.budgetMs;
  }

  /** A call to the cluster: failures that are not the request's fault become 503. */
  async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (isClusterUnavailable(error)) throw new DependencyUnavailableError('opensearch', error);
      throw error;
    }
  }

  /**
   * One request to the cluster within the caller's budget, on the next node when its node failed
   * (nodeFailed): each node at most once, each attempt given what is left of the budget, so a dead
   * node costs the time of a refused connection, not a 503, and the breaker sees one call that
   * succeeded. With one address there is no second attempt. Failures become 503 as in `call`.
   */
  private async attempt<T>(deadline: number, request: (left: number) => Promise<T>): Promise<T> {
    for (let tried = 1; ; tried++) {
      const left = this.budgetLeft(deadline);
      try {
        return await this.call(() => request(left));
      } catch (error) {
        const cause = error instanceof DependencyUnavailableError ? error.cause : error;
        if (!(nodeFailed(cause) && tried < this.nodes && deadline > Date.now())) throw error;
      }
    }
  }

  /**
   * What is left of the caller's budget, for one request to the cluster. The cluster is given the
   * same bound: `cancel_after_time_interval` cancels the search task (its answer is then a 500,
   * a 503 to the caller), so no work goes on for a caller who already has its 503. The client gives
   * up at the same moment and closes the connection, which also cancels the task on the cluster.
   * Not the body's `timeout`: the body is the key of the shard request cache, and a bound that
   * changes with every request would make every size-0 aggregation miss it.
   */
  private budgetLeft(deadline: number): number {
    const left = deadline - Date.now();
    if (left <= 0) throw new DependencyUnavailableError('opensearch', new Error('search budget spent'));
    return left;
  }

  async search(
    body: API.Search_RequestBody,
    deadline: number,
    asked: StockQuery | FacetRequest,
  ): Promise<SearchAnswer> {
    return this.attempt(deadline, async (left) => {
      const answer = await this.client.search(
        {
          index: this.index,
          body,
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

  /**
   * A search whose body carries the price statistics (statsAggregations), over `price_cents`. An
   * index whose documents lack that field (lacksCents: an index of an older mapping, which keeps
   * answering while the indexer rebuilds it) is asked again over `price`: one more round trip, only
   * until the rebuilt index takes the alias.
   */
  async searchWithStats(
    body: (prices: PriceField) => API.Search_RequestBody,
    deadline: number,
    asked: StockQuery,
  ): Promise<SearchAnswer> {
    return this.overCents((prices) => this.search(body(prices), deadline, asked));
  }

  /**
   * A page and its search statistics asked apart in one round trip (an msearch: the page uncounted,
   * the statistics with the exact total), answered as one search carrying both would be: the page's
   * hits, the statistics' total and aggregations. Over `price` as searchWithStats when it must.
   */
  async searchPageApartFromStats(
    bodies: (prices: PriceField) => { page: API.Search_RequestBody; stats: API.Search_RequestBody },
    deadline: number,
    asked: StockQuery,
  ): Promise<SearchAnswer> {
    return this.overCents(async (prices) => {
      const { page, stats } = bodies(prices);
      const [hits, figures] = await this.searchMany([page, stats], deadline, asked);
      return { ...figures!, hits: { ...hits!.hits, total: figures!.hits.total } };
    });
  }

  /** An answer's statistics over `price_cents`, or over `price` where its documents lack cents. */
  private async overCents(ask: (prices: PriceField) => Promise<SearchAnswer>): Promise<SearchAnswer> {
    const asking = async (prices: PriceField) => conditionsAndCountries(await ask(prices));
    const answer = await asking('price_cents');
    return lacksCents(answer) ? asking('price') : answer;
  }

  /** Several searches of one query in one round trip (msearch), each answer checked as one alone. */
  async searchMany(
    bodies: API.Search_RequestBody[],
    deadline: number,
    asked: StockQuery,
  ): Promise<SearchAnswer[]> {
    if (bodies.length === 0) return [];
    const answer = await this.attempt(deadline, async (left) => {
      const header = {
        index: this.index,
        preference: searchPreference(asked),
        cancel_after_time_interval: `${left}ms`,
      };
      const response = await this.client.msearch(
        { body: bodies.flatMap((body) => [header, body]) },
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

  /** Whether the alias exists (an index was built and the cluster answers). */
  async aliasExists(): Promise<boolean> {
    return this.attempt(
      this.deadline(),
      async (left) =>
        (await this.client.indices.existsAlias({ name: this.index }, { requestTimeout: left, maxRetries: 0 }))
          .body,
    );
  }
}
