import type { Client } from '@opensearch-project/opensearch';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClusterClient } from '../../indexer/cluster.js';
import { ManualClock } from '../../src/clock.js';
import { createTestAccount, type TestAccount } from '../helpers/accounts-fixture.js';
import { startApiProcess, type ApiProcess } from '../helpers/api-process.js';
import { startDedicatedCluster, type DedicatedCluster } from '../../scripts/opensearch/dedicated-cluster.js';
import { expectLedgerMatchesBalance } from '../helpers/ledger-check.js';
import {
  CAN_RUN_INDEXER,
  dropAlias,
  dropIndexerQueue,
  startIndexerProcess,
  uniqueAlias,
  type IndexerProcess,
} from '../helpers/opensearch.js';
import { startSearchLoad } from '../helpers/search-load.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { waitUntil } from '../helpers/wait-until.js';

/**
 * The whole cluster goes away while the API serves 16 callers, and comes back with its data
 * (`npm run opensearch:stop`, then `opensearch:start` on the same port): a cluster of the test's own,
 * the API and the indexer each as their own process. While it is down every search is 503 and
 * charged nothing; once it is back both processes carry on by themselves, and a stock change made
 * meanwhile reaches the index.
 */
describe.skipIf(!CAN_RUN_INDEXER)('the OpenSearch cluster stopped mid-load and started again', () => {
  let cluster: DedicatedCluster | null = null;
  let database: TestDatabase;
  let indexer: IndexerProcess | null = null;
  let api: ApiProcess | null = null;
  let account: TestAccount;
  /** the test's own searches, apart from the load's account whose ledger is checked */
  let probe: TestAccount;
  const alias = uniqueAlias('stopped');

  beforeAll(async () => {
    database = await createTestDatabase();
    await loadStockFixture(database.handle.db);
    account = await createTestAccount(database.handle.db, new ManualClock(new Date()), {
      credits: 1_000_000,
    });
    probe = await createTestAccount(database.handle.db, new ManualClock(new Date()), { credits: 1_000_000 });
    cluster = await startDedicatedCluster(9230);
    indexer = await startIndexerProcess({ databaseUrl: database.url!, alias, opensearchUrl: cluster.url });
    api = await startApiProcess({
      DATABASE_URL: database.url!,
      SEARCH_ENGINE: 'opensearch',
      OPENSEARCH_URL: cluster.url,
      OPENSEARCH_INDEX: alias,
    });
  }, 240_000);
  afterAll(async () => {
    await api?.stop();
    await indexer?.stop();
    if (cluster) {
      const client: Client = createClusterClient(cluster.url);
      await dropAlias(client, alias).catch(() => undefined);
      await client.close();
      await cluster.stop();
    }
    await dropIndexerQueue(alias);
    await database?.drop();
  }, 120_000);

  const search = (body: Record<string, unknown>) =>
    fetch(`${api!.url}/data/search`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': probe.apiKey },
      body: JSON.stringify(body),
    });

  it('answers 503 and charges nothing while it is down, and recovers without a restart of the API or the indexer', async () => {
    const load = startSearchLoad({
      url: api!.url,
      credentials: [{ 'X-API-Key': account.apiKey }, { Authorization: `Bearer ${account.bearer}` }],
      // charged first pages, text searches, and free searches that find nothing
      body: (n) =>
        n % 3 === 0 ? { part_id: 7 } : n % 3 === 1 ? { reference: `NADA-${n}` } : { text: 'disco' },
      pauseMs: 50,
    });
    const t0 = Date.now();
    const phases: string[] = [];
    const mark = (what: string) => phases.push(`${what} at ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    try {
      await waitUntil(async () => (load.tally.statuses.get(200) ?? 0) > 20, '20 searches served');
      mark('load running');
      await cluster!.stop();
      mark('stopped');
      const atStop = load.tally.statuses.get(503) ?? 0;
      await waitUntil(
        async () => (load.tally.statuses.get(503) ?? 0) > atStop + 20,
        '20 searches answered 503 while the cluster is down',
      );
      // a stock change while the cluster is down
      await sql`insert into stock_items (id, vendor_id, reference, title, condition, price, location_country_code)
                values (950, 1, 'DOWN-950', 'Mudança durante a falha', 'novo', 10, 'PT')`.execute(
        database.handle.db,
      );
      await cluster!.start();
      mark('started');
      // served again, by the same processes
      await waitUntil(
        async () => (await search({ part_id: 7 })).status === 200,
        'a search served once the cluster is back',
        60_000,
      );
      mark('served again');
      const served = load.tally.statuses.get(200) ?? 0;
      await waitUntil(
        async () => (load.tally.statuses.get(200) ?? 0) > served + 20,
        '20 more searches served by the load',
      );
      // the change made while it was down reaches the index (its job retried with backoff)
      await waitUntil(
        async () => {
          const answer = (await (await search({ reference: 'down 950' })).json()) as { total?: number };
          return answer.total === 1;
        },
        'the change made while the cluster was down to be searchable',
        150_000,
      ).catch((error: Error) => {
        throw new Error(`${error.message}\n${indexer!.output().slice(-3_000)}`);
      });
      mark('change found');
    } finally {
      await load.stop();
    }
    const { tally } = load;
    console.log(`[cluster stopped] ${phases.join(', ')}; statuses ${JSON.stringify([...tally.statuses])}`);
    expect(tally.transportErrors).toBe(0);
    expect([...tally.statuses.keys()].filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect([...tally.errorCodes.keys()]).toEqual(['SERVICE_UNAVAILABLE']);
    expect(api!.alive(), api!.output()).toBe(true);
    expect(indexer!.child.exitCode, indexer!.output()).toBeNull();
    expect((await fetch(`${api!.url}/ready`)).status).toBe(200);
    await expectLedgerMatchesBalance(database.handle.db, account.accountId, { spent: tally.creditsSpent });
  }, 300_000);
});
