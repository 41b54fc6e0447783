import type { Client } from '@opensearch-project/opensearch';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createIndexQueue, redisConnection } from '../../indexer/index-queue.js';
import { INDEXER_APPLICATION_NAME } from '../../indexer/indexer.js';
import { ledgerStatus } from '../../indexer/outbox.js';
import type { RedisServerProcess } from '../../scripts/redis-server-process.js';
import type { FaultProxy } from '../helpers/fault-proxy.js';
import { indexMismatches } from '../helpers/index-contents.js';
import { openIndexerHarness, type IndexerHarness } from '../helpers/indexer-harness.js';
import {
  CAN_RUN_INDEXER,
  dropAlias,
  startIndexerProcess,
  uniqueAlias,
  type IndexerProcess,
} from '../helpers/opensearch.js';
import type { TestDatabase } from '../helpers/test-database.js';
import { waitUntil } from '../helpers/wait-until.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Confirmed delivery (issue 25): the real indexer (startIndexer, in this process) over a database of
 * the test's, a Redis of its own that can be killed, and the live cluster behind a fault proxy that
 * can make it unreachable. The verification sweep is off in every case, so what brings the index
 * back is delivery itself; each case ends with the index compared item by item to PostgreSQL.
 */
describe.skipIf(!CAN_RUN_INDEXER)('confirmed delivery to the index, under faults', () => {
  let harness: IndexerHarness;
  let database: TestDatabase;
  let redis: RedisServerProcess;
  let proxy: FaultProxy;
  let admin: Client;
  const db = () => harness.db();
  const startOwnIndexer = (settings: Record<string, string>) => harness.start(settings);

  beforeAll(async () => {
    harness = await openIndexerHarness('delivery');
    ({ database, redis, proxy, admin } = harness);
  });
  afterEach(() => harness.reset());
  afterAll(() => harness?.close());

  const owed = async () => (await ledgerStatus(db())).owed;
  const settled = () => waitUntil(async () => (await owed()) === 0, 'every change to be confirmed', 60_000);
  const changePrices = (from: number, count: number) =>
    sql`update stock_items set price = price + 1000 where id >= ${from} and id < ${from + count}`.execute(
      db(),
    );

  it('(a) Redis killed and started empty after the relay handed changes to it while the cluster was unreachable: every change reaches the index', async () => {
    // the default lease (two minutes): the relay finds the lost jobs by itself, long before it ends
    const { alias, handle } = await startOwnIndexer({});
    await proxy.refuseConnections();
    await changePrices(1_000, 200);
    await waitUntil(
      async () => (await ledgerStatus(db())).handed >= 200,
      'the changes to be handed to Redis',
    );
    expect(await owed()).toBe(200);

    await redis.kill();
    await redis.restart();
    const queue = createIndexQueue(redisConnection(redis.url, 'producer'), alias);
    expect(await queue.getJobCounts('waiting', 'active', 'delayed')).toEqual({
      waiting: 0,
      active: 0,
      delayed: 0,
    });
    await queue.close();
    // the relay finds the jobs gone and hands the rows out again, while the cluster is still away:
    // a bulk attempt the worker still had in hand when Redis died cannot deliver them first
    await waitUntil(
      () => handle.metrics.totals.handedAgain >= 200,
      'the relay to hand the lost changes out again',
      30_000,
    );
    await proxy.acceptConnections();

    await settled();
    expect(await indexMismatches(db(), admin, alias)).toEqual([]);
  });

  it('(b) the cluster unreachable far longer than the jobs\u2019 retry budget: nothing is given up, no attempt spent, the index catches up once it is back', async () => {
    // One attempt per job and a lease longer than the test: neither BullMQ's retries nor the relay
    // handing rows out again can be what brings the changes in.
    const { alias, handle } = await startOwnIndexer({
      INDEXER_JOB_ATTEMPTS: '1',
      INDEXER_LEASE_SECONDS: '3600',
    });
    await proxy.refuseConnections();
    await changePrices(1_500, 300);
    await sql`delete from stock_items where id between 2900 and 2909`.execute(db());
    // many times the budget of a job that fails at its first error
    await waitUntil(() => handle.metrics.totals.retries >= 10, 'the worker to wait through failures');
    await pause(3_000);
    expect(await owed()).toBe(310);

    await proxy.acceptConnections();
    await settled();
    const queue = createIndexQueue(redisConnection(redis.url, 'producer'), alias);
    expect((await queue.getJobCounts('failed')).failed).toBe(0);
    await queue.close();
    expect(handle.metrics.totals.handedAgain).toBe(0);
    expect(await indexMismatches(db(), admin, alias)).toEqual([]);
  });

  it(
    '(c) the indexer process SIGKILLed in the middle of a bulk request: another indexer delivers what it held',
    { timeout: 120_000 },
    async () => {
      // this case runs the indexer as processes, not the harness's
      const alias = uniqueAlias('delivery');
      await sql`update search_outbox set done_at = now() where done_at is null`.execute(db());
      const settings = {
        REDIS_URL: redis.url,
        INDEXER_SWEEP_PERIOD_SECONDS: '0',
        INDEXER_LEASE_SECONDS: '2',
        INDEXER_LOCK_MS: '1000',
      };
      const processes: IndexerProcess[] = [];
      const start = async () => {
        const started = await startIndexerProcess({
          databaseUrl: database.url!,
          alias,
          opensearchUrl: proxy.url,
          env: settings,
        });
        processes.push(started);
        return started;
      };
      try {
        const first = await start();
        // the cluster gets the bulk request, its answer never reaches the worker
        proxy.inject({ method: 'POST', path: /\/_bulk$/, fault: { delayMs: 60_000 } });
        await changePrices(2_000, 100);
        await waitUntil(
          () => proxy.received('POST', /\/_bulk$/).some((r) => r.handling === 'delayed'),
          'a bulk request to be in flight',
        );
        const exited = new Promise((resolve) => first.child.once('exit', resolve));
        first.child.kill('SIGKILL');
        await exited;
        proxy.clearFaults();
        expect(await owed()).toBeGreaterThan(0);

        const second = await start();
        await settled().catch((error: unknown) => {
          throw new Error(`${String(error)}\n${second.output()}`);
        });
        expect(await indexMismatches(db(), admin, alias)).toEqual([]);
      } finally {
        for (const p of processes) await p.stop();
        await dropAlias(admin, alias);
      }
    },
  );

  it('(d) the indexer\u2019s PostgreSQL backends terminated again and again while it relays a stream of changes: nothing is lost', async () => {
    const { alias } = await startOwnIndexer({ INDEXER_LEASE_SECONDS: '2', INDEXER_BATCH_SIZE: '50' });
    let terminated = 0;
    let writing = true;
    const killer = (async () => {
      while (writing) {
        const result = await sql<{ n: string }>`
          select count(pg_terminate_backend(pid)) as n from pg_stat_activity
           where datname = current_database() and application_name = ${INDEXER_APPLICATION_NAME}`.execute(
          db(),
        );
        terminated += Number(result.rows[0]!.n);
        await pause(150);
      }
    })();
    try {
      for (let round = 0; round < 40; round++) {
        await changePrices(1_000 + (round % 20) * 50, 50);
        await pause(25);
      }
    } finally {
      writing = false;
      await killer;
    }
    expect(terminated).toBeGreaterThan(5);
    await settled();
    expect(await indexMismatches(db(), admin, alias)).toEqual([]);
  });
});
