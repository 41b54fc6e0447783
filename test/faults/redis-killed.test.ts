import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServerProcess } from '../../scripts/redis-server-process.js';
import { ManualClock } from '../../src/clock.js';
import { createTestAccount, type TestAccount } from '../helpers/accounts-fixture.js';
import { startApiProcess, type ApiProcess } from '../helpers/api-process.js';
import { expectLedgerMatchesBalance } from '../helpers/ledger-check.js';
import { startSearchLoad } from '../helpers/search-load.js';
import { seriesValue } from '../helpers/prometheus-text.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { TEST_DATABASE_URL } from '../helpers/test-env.js';
import { waitUntil } from '../helpers/wait-until.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The API's Redis (rate-limit counters, the credential-change channel) is killed with SIGKILL while
 * 16 callers search, and started again empty on the same port: the API keeps answering (limits
 * count in memory meanwhile), never with a 5xx other than 503, its process lives, it reconnects by
 * itself, and the money adds up to what the clients were told.
 */
describe.skipIf(!TEST_DATABASE_URL)('Redis killed mid-load', () => {
  let database: TestDatabase;
  let redis: RedisServerProcess;
  let api: ApiProcess;
  let account: TestAccount;
  let metricsUrl: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    await loadStockFixture(database.handle.db);
    account = await createTestAccount(database.handle.db, new ManualClock(new Date()), { credits: 100_000 });
    redis = await startRedisServer();
    api = await startApiProcess({ DATABASE_URL: database.url!, REDIS_URL: redis.url, METRICS_PORT: '0' });
    metricsUrl = /Métricas: (http:\/\/\S+)/.exec(api.output())![1]!;
  });
  afterAll(async () => {
    await api?.stop();
    await redis?.stop();
    await database?.drop();
  });

  const redisUp = async () => seriesValue(await (await fetch(metricsUrl)).text(), 'pss_redis_up');

  it('serves on through the crash and the restart; no 5xx but 503; credits exact', async () => {
    expect(await redisUp()).toBe(1);
    const load = startSearchLoad({
      url: api.url,
      credentials: [{ 'X-API-Key': account.apiKey }, { Authorization: `Bearer ${account.bearer}` }],
      body: (n) => (n % 3 === 0 ? { part_id: 7 } : n % 3 === 1 ? { reference: `NADA-${n}` } : { part_id: 3 }),
    });
    let servedWhileDown = 0;
    try {
      await pause(500);
      for (let round = 0; round < 2; round++) {
        await redis.kill();
        await waitUntil(async () => (await redisUp()) === 0, 'the API to see Redis down');
        // Redis stays down a while under load; searches must be answered meanwhile (a loaded
        // machine may take longer than that pause to answer one: waited for, not timed)
        const before = load.tally.statuses.get(200) ?? 0;
        await pause(1_000);
        await waitUntil(
          () => (load.tally.statuses.get(200) ?? 0) > before,
          'a search served while Redis is down',
        );
        servedWhileDown += (load.tally.statuses.get(200) ?? 0) - before;
        await redis.restart();
        await waitUntil(async () => (await redisUp()) === 1, 'the API to reconnect to Redis');
        await pause(500);
      }
    } finally {
      await load.stop();
    }
    const { tally } = load;

    expect(api.alive(), api.output()).toBe(true);
    expect(tally.transportErrors).toBe(0);
    expect(
      [...tally.statuses.keys()].every((s) => s < 500 || s === 503),
      JSON.stringify([...tally.statuses]),
    ).toBe(true);
    expect([...tally.statuses.keys()].filter((s) => s >= 400 && s !== 503)).toEqual([]);
    expect(servedWhileDown, 'searches answered 200 while Redis was down').toBeGreaterThan(0);

    await waitUntil(async () => {
      const res = await fetch(`${api.url}/data/search`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': account.apiKey },
        body: JSON.stringify({ part_id: 3 }),
      });
      if (res.status === 200)
        tally.creditsSpent += ((await res.json()) as { credits_spent: number }).credits_spent;
      return res.status === 200;
    }, 'a search served after the restart');
    await waitUntil(async () => (await fetch(`${api.url}/ready`)).status === 200, '/ready to answer 200');
    await expectLedgerMatchesBalance(database.handle.db, account.accountId, { spent: tally.creditsSpent });
  });
});
