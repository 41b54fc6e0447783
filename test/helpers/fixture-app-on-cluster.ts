import type { Client } from '@opensearch-project/opensearch';
import { rebuildIndex } from '../../indexer/rebuild.js';
import type { ManualClock } from '../../src/clock.js';
import type { TestAccount } from './accounts-fixture.js';
import { seriesValue } from './prometheus-text.js';
import { searchesDuring, type LoadTally } from './search-load.js';
import { loadStockFixture } from './stock-fixture.js';
import { startTestApp, type TestApp } from './test-app.js';

/** The token the fault suites' apps serve /metrics with. */
const METRICS_TOKEN = 'metrics-token-of-the-test';

/**
 * The API on the OpenSearch cluster at `urls` (one address or several, comma-separated), with its
 * metrics, over the stock fixture indexed behind `alias` by a rebuild through `admin`: what the
 * fault suites that stop, slow or kill a cluster run against.
 */
export async function startFixtureAppOnCluster(
  urls: string,
  alias: string,
  admin: Client,
  clock: ManualClock,
  env: Record<string, string> = {},
): Promise<TestApp> {
  const app = await startTestApp({
    clock,
    env: {
      SEARCH_ENGINE: 'opensearch',
      OPENSEARCH_URL: urls,
      OPENSEARCH_INDEX: alias,
      OPENSEARCH_TIMEOUT_MS: '5000',
      METRICS_TOKEN,
      ...env,
    },
  });
  await loadStockFixture(app.services.db);
  await rebuildIndex(app.services.db, admin, alias);
  return app;
}

/** One series of such an app's /metrics (undefined when it has none). */
export async function metricOf(app: TestApp, name: string, labels: Record<string, string> = {}) {
  const answer = await fetch(`${app.baseUrl}/metrics`, {
    headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
  });
  return seriesValue(await answer.text(), name, labels);
}

/** A charged search of the fixture (results: 1 credit) and one that finds nothing (free). */
const fixtureSearch = (n: number) => (n % 2 === 0 ? { part_id: 7 } : { reference: `NADA-${n}` });

/**
 * Eight callers searching the fixture as `account` (every other search charged), each pausing
 * `pauseMs` after an answer, while `during` runs: the tally of what they were told.
 */
export function fixtureSearchesDuring(
  app: TestApp,
  account: TestAccount,
  pauseMs: number,
  during: () => Promise<void>,
): Promise<LoadTally> {
  return searchesDuring(
    {
      url: app.baseUrl,
      credentials: [{ 'X-API-Key': account.apiKey }],
      body: fixtureSearch,
      connections: 8,
      pauseMs,
    },
    during,
  );
}
