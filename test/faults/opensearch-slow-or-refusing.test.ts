import type { Client } from '@opensearch-project/opensearch';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rebuildIndex } from '../../indexer/rebuild.js';
import { ManualClock } from '../../src/clock.js';
import { stockQuery } from '../../src/search/stock-query.js';
import { DEFAULT_BUDGET_MS, OpenSearchEngine } from '../../src/search/opensearch/opensearch-engine.js';
import { DependencyUnavailableError } from '../../src/errors.js';
import { createTestAccount, creditsOf, type TestAccount } from '../helpers/accounts-fixture.js';
import { FaultProxy, type ProxiedRequest } from '../helpers/fault-proxy.js';
import { expectLedgerMatchesBalance } from '../helpers/ledger-check.js';
import {
  clusterClient,
  dropAlias,
  TEST_OPENSEARCH_URL,
  uniqueAlias,
  waitUntil,
} from '../helpers/opensearch.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * OPENSEARCH_TIMEOUT_MS of the app: what one search may take on the cluster in all. The production
 * default, which a healthy search meets even on two busy cores (the cases below that are healthy,
 * and the first round trip of the slow statistics, must not be cut by it); a slow case waits it out.
 */
const BUDGET_MS = DEFAULT_BUDGET_MS;
/** How long the proxy holds back a slow answer: far beyond the budget, and beyond a retry of it. */
const SLOW_MS = 12 * BUDGET_MS;

/** "800ms" → 800 */
const millis = (value: unknown): number => {
  const match = /^(\d+)ms$/.exec(String(value));
  if (!match) throw new Error(`not a time in milliseconds: ${String(value)}`);
  return Number(match[1]);
};

/**
 * The API on OpenSearch with a fault proxy between it and the live cluster, for what a live node
 * cannot be made to do on demand: answer slowly, or answer 429 (a full search queue, a tripped
 * circuit breaker), or cut a search short at its timeout. In each case the caller gets 503
 * SERVICE_UNAVAILABLE and is charged nothing, and the API does not wait past its budget.
 */
describe.skipIf(!TEST_OPENSEARCH_URL)('OpenSearch slow or refusing, behind a fault proxy', () => {
  let proxy: FaultProxy;
  let app: TestApp;
  let admin: Client;
  let account: TestAccount;
  const alias = uniqueAlias('faults');
  const clock = new ManualClock(new Date());

  /** The app's settings: the engine through the proxy. */
  const appEnv = () => ({
    SEARCH_ENGINE: 'opensearch',
    OPENSEARCH_URL: proxy.url,
    OPENSEARCH_INDEX: alias,
    OPENSEARCH_TIMEOUT_MS: String(BUDGET_MS),
    // each case fails on purpose, one after the other: the engine's circuit breaker (tested in
    // engine-stall.test.ts) is kept closed so that every case reaches the cluster
    BREAKER_CONSECUTIVE_FAILURES: '100000',
    BREAKER_MIN_CALLS: '100000',
    BREAKER_SLOW_IN_FLIGHT: '100000',
  });

  beforeAll(async () => {
    admin = clusterClient();
    proxy = await FaultProxy.start(TEST_OPENSEARCH_URL!);
    app = await startTestApp({
      clock,
      env: appEnv(),
      // A statistics request over more than two items takes its second round trip (an msearch for
      // the histogram and the quartiles): the fixture is too small to reach the usual bound.
      overrides: {
        engine: OpenSearchEngine.connect(proxy.url, {
          index: alias,
          budgetMs: BUDGET_MS,
          pricesReadAtOnce: 2,
        }),
      },
    });
    await loadStockFixture(app.services.db);
    await rebuildIndex(app.services.db, admin, alias);
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
    if (admin) await dropAlias(admin, alias);
    await admin?.close();
  });
  beforeEach(async () => {
    proxy.clearFaults();
    account = await createTestAccount(app.services.db, clock, { credits: 100 });
  });

  const post = (path: string, body: Record<string, unknown>) =>
    app.api.withApiKey(account.apiKey).post<{ code?: string; total?: number }>(path, body);

  /** The requests the proxy received while `act` ran, with what they were when it returned. */
  async function during<T>(
    act: () => Promise<T>,
  ): Promise<{ result: T; sent: ProxiedRequest[]; answeredBefore: (number | null)[] }> {
    const before = proxy.requests.length;
    const result = await act();
    const sent = proxy.requests.slice(before);
    return { result, sent, answeredBefore: sent.map((r) => r.status) };
  }

  async function expectNothingCharged(): Promise<void> {
    expect(await creditsOf(app.services.db, account.accountId)).toBe(100);
    await expectLedgerMatchesBalance(app.services.db, account.accountId, { spent: 0 });
  }

  it('serves searches through the proxy when nothing is wrong', async () => {
    const { result, sent } = await during(() => post('/data/search', { reference: '1K0 615 301 AA' }));
    expect(result.status).toBe(200);
    expect(result.body.total).toBeGreaterThan(0);
    expect(sent.filter((r) => r.path.endsWith('/_search'))).toHaveLength(1);
  });

  it('a slow search: 503 before the cluster answers, one request (no retry) that told the cluster the budget', async () => {
    proxy.inject({ method: 'POST', path: /\/_search$/, fault: { delayMs: SLOW_MS } });
    const { result, sent, answeredBefore } = await during(() =>
      post('/data/search', { reference: '1K0 615 301 AA' }),
    );
    expect(result.status).toBe(503);
    expect(result.body.code).toBe('SERVICE_UNAVAILABLE');
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([`POST /${alias}/_search`]);
    // the API answered while the proxy still held the cluster's answer, and gave up on it
    expect(answeredBefore).toEqual([null]);
    await waitUntil(async () => sent[0]!.abortedByClient, 'the API to close the slow request');
    // the cluster was told to stop within the budget (task cancellation), the body left as the
    // shard request cache keys it (no timeout that changes with every request)
    const search = sent[0]!;
    expect(millis(search.query.get('cancel_after_time_interval'))).toBeLessThanOrEqual(BUDGET_MS);
    expect(JSON.parse(search.body)).not.toHaveProperty('timeout');
    await expectNothingCharged();
  });

  it('slow statistics: the second round trip gets what is left of the one budget, then 503', async () => {
    proxy.inject({ method: 'POST', path: /\/_msearch$/, fault: { delayMs: SLOW_MS } });
    const { result, sent, answeredBefore } = await during(() =>
      post('/data/search/stats', { vehicle_make: 'volkswagen' }),
    );
    expect(result.status).toBe(503);
    expect(result.body.code).toBe('SERVICE_UNAVAILABLE');
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([`POST /${alias}/_search`, 'POST /_msearch']);
    expect(answeredBefore[1]).toBeNull();
    await waitUntil(async () => sent[1]!.abortedByClient, 'the API to close the slow msearch');
    const first = millis(sent[0]!.query.get('cancel_after_time_interval'));
    expect(first).toBeLessThanOrEqual(BUDGET_MS);
    // msearch: header and body lines in turn; every search's header carries what was left, never
    // more, and no body a timeout
    const lines = sent[1]!.body
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { cancel_after_time_interval?: string });
    const headers = lines.filter((_, i) => i % 2 === 0);
    expect(headers.length).toBeGreaterThan(0);
    for (const header of headers)
      expect(millis(header.cancel_after_time_interval)).toBeLessThanOrEqual(first);
    for (const body of lines.filter((_, i) => i % 2 === 1)) expect(body).not.toHaveProperty('timeout');
    await expectNothingCharged();
  });

  it('slow statistics from the first request: 503 with one request only', async () => {
    proxy.inject({ method: 'POST', path: /\/_search$/, fault: { delayMs: SLOW_MS } });
    const { result, sent } = await during(() => post('/data/search/stats', { vehicle_make: 'volkswagen' }));
    expect(result.status).toBe(503);
    expect(sent.map((r) => r.path)).toEqual([`/${alias}/_search`]);
    await expectNothingCharged();
  });

  it('an answer the cluster cut short at its timeout, or gave from only some shards, is refused: 503', async () => {
    const cutShort = (timedOut: boolean, failed: number) => ({
      took: BUDGET_MS,
      timed_out: timedOut,
      _shards: { total: 2, successful: 2 - failed, skipped: 0, failed },
      hits: { total: { value: 0, relation: 'eq' }, max_score: null, hits: [] },
    });
    for (const [timedOut, failed] of [
      [true, 0],
      [false, 1],
    ] as const) {
      proxy.clearFaults();
      proxy.inject({
        method: 'POST',
        path: /\/_search$/,
        fault: { status: 200, body: cutShort(timedOut, failed) },
      });
      const response = await post('/data/search', { reference: '1K0 615 301 AA' });
      expect(response.status, `timed_out ${timedOut}, failed shards ${failed}`).toBe(503);
      expect(response.body.code).toBe('SERVICE_UNAVAILABLE');
    }
    await expectNothingCharged();
  });

  it('429 from the cluster (a full search queue, a tripped circuit breaker) is 503, asked once, nothing charged', async () => {
    const rejected = {
      error: {
        type: 'es_rejected_execution_exception',
        reason: 'rejected execution of coordinating operation [search queue full]',
      },
      status: 429,
    };
    const breaker = {
      error: {
        type: 'circuit_breaking_exception',
        reason: '[parent] Data too large, data for [<http_request>] would be larger than the limit',
        bytes_wanted: 1,
        bytes_limit: 1,
        durability: 'TRANSIENT',
      },
      status: 429,
    };
    const cases: [string, Record<string, unknown>, unknown, RegExp][] = [
      ['/data/search', { reference: '1K0 615 301 AA' }, rejected, /\/_search$/],
      ['/data/search/stats', { vehicle_make: 'volkswagen' }, breaker, /\/_search$/],
      ['/data/search/stats', { vehicle_make: 'volkswagen' }, rejected, /\/_msearch$/],
    ];
    for (const [path, body, answer, at] of cases) {
      proxy.clearFaults();
      proxy.inject({ method: 'POST', path: at, fault: { status: 429, body: answer } });
      const { result, sent } = await during(() => post(path, body));
      expect(result.status, `${path} ${at}`).toBe(503);
      expect(result.body.code).toBe('SERVICE_UNAVAILABLE');
      expect(
        sent.filter((r) => at.test(r.path)),
        'not retried',
      ).toHaveLength(1);
    }
    proxy.clearFaults();
    proxy.inject({ method: 'POST', path: /\/_search$/, fault: { status: 429, body: rejected } });
    const brands = await app.api.get<{ code: string }>('/data/catalog/brands');
    expect(brands.status).toBe(503);
    expect(brands.body.code).toBe('SERVICE_UNAVAILABLE');
    await expectNothingCharged();
  });

  it("a 5xx answer to a search (500, a proxy's 502 without a body, 503) is 503, asked once, nothing charged", async () => {
    const answers: [number, unknown][] = [
      [500, { error: { type: 'exception', reason: 'something broke on the node' }, status: 500 }],
      [502, undefined],
      [
        503,
        {
          error: { type: 'cluster_block_exception', reason: 'blocked by: [SERVICE_UNAVAILABLE]' },
          status: 503,
        },
      ],
    ];
    for (const [status, body] of answers) {
      proxy.clearFaults();
      proxy.inject({ method: 'POST', path: /\/_search$/, fault: { status, body } });
      const { result, sent } = await during(() => post('/data/search', { reference: '1K0 615 301 AA' }));
      expect(result.status, `cluster ${status}`).toBe(503);
      expect(result.body.code).toBe('SERVICE_UNAVAILABLE');
      expect(result.headers.get('retry-after')).not.toBeNull();
      expect(
        sent.filter((r) => r.path.endsWith('/_search')),
        'not retried',
      ).toHaveLength(1);
    }
    await expectNothingCharged();
  });

  it('a connection dropped without an answer is 503, asked once, nothing charged', async () => {
    proxy.inject({ method: 'POST', path: /\/_search$/, fault: { drop: true } });
    const { result, sent } = await during(() => post('/data/search', { reference: '1K0 615 301 AA' }));
    expect(result.status).toBe(503);
    expect(result.body.code).toBe('SERVICE_UNAVAILABLE');
    expect(sent.map((r) => [r.path, r.handling])).toEqual([[`/${alias}/_search`, 'dropped']]);
    // statistics too: the second round trip dropped
    proxy.clearFaults();
    proxy.inject({ method: 'POST', path: /\/_msearch$/, fault: { drop: true } });
    const stats = await post('/data/search/stats', { vehicle_make: 'volkswagen' });
    expect(stats.status).toBe(503);
    expect(stats.body.code).toBe('SERVICE_UNAVAILABLE');
    await expectNothingCharged();
  });

  it("one search of the statistics' msearch failing with a 5xx, even after one that succeeded, is 503", async () => {
    /** an answer that is complete: what a search of the msearch that succeeded gives */
    const fine = {
      took: 1,
      timed_out: false,
      _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
      hits: { total: { value: 0, relation: 'eq' }, max_score: null, hits: [] },
    };
    const failed = (status: number, type: string) => ({
      error: { type, reason: `${type} on one search` },
      status,
    });
    for (const responses of [
      [failed(503, 'node_not_connected_exception'), fine],
      [fine, failed(500, 'exception')],
      [fine, fine, failed(429, 'es_rejected_execution_exception')],
      [fine, failed(404, 'index_not_found_exception')],
    ]) {
      proxy.clearFaults();
      proxy.inject({
        method: 'POST',
        path: /\/_msearch$/,
        fault: { status: 200, body: { took: 2, responses } },
      });
      const { result, sent } = await during(() => post('/data/search/stats', { vehicle_make: 'volkswagen' }));
      expect(result.status, JSON.stringify(responses)).toBe(503);
      expect(result.body.code).toBe('SERVICE_UNAVAILABLE');
      expect(sent.map((r) => r.path)).toEqual([`/${alias}/_search`, '/_msearch']);
    }
    await expectNothingCharged();
  });

  it('the cluster refusing the API’s own credentials (401, 403 security_exception) is 503, asked once, nothing charged', async () => {
    for (const [status, reason] of [
      [401, 'unable to authenticate user [pss] for REST request'],
      [403, 'no permissions for [indices:data/read/search] and User [name=pss]'],
    ] as const) {
      proxy.clearFaults();
      proxy.inject({
        method: 'POST',
        path: /\/_search$/,
        fault: { status, body: { error: { type: 'security_exception', reason }, status } },
      });
      const { result, sent } = await during(() => post('/data/search', { reference: '1K0 615 301 AA' }));
      expect(result.status, `cluster ${status}`).toBe(503);
      expect(result.body.code).toBe('SERVICE_UNAVAILABLE');
      expect(
        sent.filter((r) => r.path.endsWith('/_search')),
        'not retried',
      ).toHaveLength(1);
    }
    await expectNothingCharged();
  });

  it('a 4xx from the cluster is our error, not its unavailability: 500 INTERNAL_ERROR, not retried, nothing charged', async () => {
    const refusals: [number, string][] = [
      [400, 'search_phase_execution_exception'],
      [403, 'index_create_block_exception'],
      [404, 'resource_not_found_exception'],
    ];
    for (const [status, type] of refusals) {
      proxy.clearFaults();
      proxy.inject({
        method: 'POST',
        path: /\/_search$/,
        fault: { status, body: { error: { type, reason: `${type}: the request was wrong` }, status } },
      });
      const { result, sent } = await during(() => post('/data/search', { reference: '1K0 615 301 AA' }));
      expect(result.status, `cluster ${status} ${type}`).toBe(500);
      expect(result.body.code).toBe('INTERNAL_ERROR');
      expect(
        sent.filter((r) => r.path.endsWith('/_search')),
        'not retried',
      ).toHaveLength(1);
    }
    // one search of an msearch refused with a 4xx: the same
    proxy.clearFaults();
    const parsing = { error: { type: 'parsing_exception', reason: 'unknown query' }, status: 400 };
    proxy.inject({
      method: 'POST',
      path: /\/_msearch$/,
      fault: { status: 200, body: { responses: [parsing] } },
    });
    const stats = await post('/data/search/stats', { vehicle_make: 'volkswagen' });
    expect(stats.status).toBe(500);
    expect(stats.body.code).toBe('INTERNAL_ERROR');
    await expectNothingCharged();
  });

  it('a search whose time budget is already spent is not sent: 503, nothing charged', async () => {
    const spent = () => OpenSearchEngine.connect(proxy.url, { index: alias, budgetMs: 0 });
    const before = proxy.requests.length;
    // through the engine's contract: refused as the cluster being unavailable
    const engine = spent();
    const refused = await engine
      .search(stockQuery({ reference: '1K0 615 301 AA' }), { page: 1, perPage: 20 })
      .then(
        () => null,
        (error: unknown) => error,
      )
      .finally(() => engine.close());
    expect(refused).toBeInstanceOf(DependencyUnavailableError);
    // and through the API (the app closes its engine)
    const spentApp = await startTestApp({
      clock,
      database: app.database,
      env: appEnv(),
      overrides: { engine: spent() },
    });
    try {
      const res = await spentApp.api
        .withApiKey(account.apiKey)
        .post<{ code?: string }>('/data/search/stats', { vehicle_make: 'volkswagen' });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await spentApp.close();
    }
    expect(proxy.requests.slice(before).filter((r) => /_m?search$/.test(r.path))).toEqual([]);
    await expectNothingCharged();
  });
});
