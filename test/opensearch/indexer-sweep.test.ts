import type { Client } from '@opensearch-project/opensearch';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { IndexerHandle } from '../../indexer/indexer.js';
import type { RedisServerProcess } from '../../scripts/redis-server-process.js';
import type { FaultProxy } from '../helpers/fault-proxy.js';
import { indexMismatches } from '../helpers/index-contents.js';
import { openIndexerHarness, type IndexerHarness } from '../helpers/indexer-harness.js';
import { CAN_RUN_INDEXER } from '../helpers/opensearch.js';
import { seriesValue } from '../helpers/prometheus-text.js';
import { waitUntil } from '../helpers/wait-until.js';

interface LogLine {
  level: number;
  msg: string;
  itemId?: number;
  kind?: string;
  foundBy?: string;
  maxmemoryPolicy?: string;
  index?: string;
}

/**
 * What the indexer does by itself (issue 25): its verification sweep finds and repairs drift and
 * exports what it found, a rebuild is followed by a verification, its /ready tells when the index
 * is behind, and it says so when Redis may evict the queue's keys. The real indexer in this
 * process, a Redis of the test's, the live cluster (behind a fault proxy where it must be away).
 */
describe.skipIf(!CAN_RUN_INDEXER)('the indexer verifies by itself and tells how far behind it is', () => {
  let harness: IndexerHarness;
  let redis: RedisServerProcess;
  let proxy: FaultProxy;
  let admin: Client;
  let logged: LogLine[] = [];
  const db = () => harness.db();

  beforeAll(async () => {
    harness = await openIndexerHarness('sweep');
    ({ redis, proxy, admin } = harness);
  });
  afterEach(() => harness.reset());
  afterAll(() => harness?.close());

  /** The indexer with its log lines kept in `logged` and its metrics port open. */
  function start(settings: Record<string, string>) {
    logged = [];
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => logged.push(JSON.parse(line) as LogLine) },
    );
    return harness.start(settings, logger, 0);
  }
  const scrape = async (handle: IndexerHandle) => (await fetch(`${handle.metricsUrl}/metrics`)).text();

  it('the sweep finds documents changed behind its back, repairs them, logs each, and exports the drift of its last pass', async () => {
    const { alias, handle } = await start({
      INDEXER_SWEEP_PERIOD_SECONDS: '2',
      INDEXER_SWEEP_RANGE_SIZE: '500',
    });
    await admin.delete({ index: alias, id: '1500' });
    await admin.update({ index: alias, id: '1600', body: { doc: { price: 2 } } });

    await waitUntil(
      async () => (await indexMismatches(db(), admin, alias)).length === 0,
      'the sweep to repair',
      30_000,
    );
    const repairs = logged.filter((l) => l.msg.startsWith('the index differed from PostgreSQL'));
    expect(repairs.map((l) => [l.itemId, l.kind, l.foundBy])).toEqual(
      expect.arrayContaining([
        [1500, 'missing', 'verification sweep'],
        [1600, 'version', 'verification sweep'],
      ]),
    );
    await waitUntil(
      async () => (seriesValue(await scrape(handle), 'search_index_drift_items') ?? 0) >= 2,
      'a complete pass that counts them',
      30_000,
    );
    const text = await scrape(handle);
    expect(seriesValue(text, 'search_index_last_sweep_timestamp_seconds')).toBeGreaterThan(
      Date.now() / 1000 - 60,
    );
    expect(seriesValue(text, 'search_index_repairs_total')).toBeGreaterThanOrEqual(2);
    // the next complete pass finds nothing
    const before = seriesValue(text, 'search_index_last_sweep_timestamp_seconds')!;
    await waitUntil(
      async () =>
        (seriesValue(await scrape(handle), 'search_index_last_sweep_timestamp_seconds') ?? 0) > before,
      'another complete pass',
      30_000,
    );
    expect(seriesValue(await scrape(handle), 'search_index_drift_items')).toBe(0);
  });

  it('on a first start it says what it did to the schema and builds the index as information, not as a warning', async () => {
    await start({});
    expect(logged.find((l) => /^database (schema up to date|migrations applied)/.test(l.msg))).toMatchObject({
      level: 30,
    });
    expect(logged.find((l) => l.msg === 'building the index for the first time')).toMatchObject({
      level: 30,
    });
    // the end of the load said, before what follows it (minutes at millions of items)
    expect(logged.find((l) => l.msg.startsWith('rebuild loaded the new index: '))).toMatchObject({
      level: 30,
      index: expect.stringMatching(/_v1$/),
    });
    expect(logged.filter((l) => l.level >= 40 && /rebuild/.test(l.msg))).toEqual([]);
  });

  it('stops at once when told to while its sweep is checking a range', async () => {
    // One range holds the whole stock, so the pause after it is the whole period (10 minutes).
    await start({ INDEXER_SWEEP_PERIOD_SECONDS: '600' });
    proxy.inject({ method: 'POST', path: /\/_search$/, fault: { delayMs: 2_000 } });
    await waitUntil(
      () => proxy.requests.some((r) => r.handling === 'delayed' && r.body.includes('content_hash')),
      'the sweep to scan its range',
    );
    await harness.reset();
  });

  it('a rebuild is followed by a verification of the new index', async () => {
    await start({});
    await sql`update search_indexer_state set rebuild_requested_at = now()`.execute(db());
    await waitUntil(
      () => logged.some((l) => l.msg === 'the new index was verified against PostgreSQL'),
      'the verification after the rebuild',
      60_000,
    );
  });

  it('/ready turns 503 while the oldest unconfirmed change is older than the threshold, and 200 once the index caught up', async () => {
    const { handle } = await start({ INDEXER_READY_MAX_LAG_SECONDS: '1' });
    const ready = async () => {
      const answer = await fetch(`${handle.metricsUrl}/ready`);
      return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
    };
    expect((await ready()).status).toBe(200);
    await proxy.refuseConnections();
    await sql`update stock_items set price = price + 1 where id = 1700`.execute(db());
    await waitUntil(async () => (await ready()).status === 503, 'the indexer to say it is behind');
    expect((await ready()).body).toMatchObject({ ready: false, index_built: true, owed_changes: 1 });
    expect(seriesValue(await scrape(handle), 'search_outbox_lag_seconds')).toBeGreaterThan(1);
    await proxy.acceptConnections();
    await waitUntil(async () => (await ready()).status === 200, 'the indexer to catch up', 30_000);
  });

  it('warns, in its log and its metrics, when Redis may evict the queue\u2019s keys', async () => {
    const settings = new Redis(redis.url);
    try {
      await settings.config('SET', 'maxmemory-policy', 'allkeys-lru');
      const { handle } = await start({});
      expect(seriesValue(await scrape(handle), 'search_indexer_redis_noeviction')).toBe(0);
      expect(logged.find((l) => l.maxmemoryPolicy === 'allkeys-lru')).toMatchObject({ level: 40 });
      await harness.reset();
      await settings.config('SET', 'maxmemory-policy', 'noeviction');
      const again = await start({});
      expect(seriesValue(await scrape(again.handle), 'search_indexer_redis_noeviction')).toBe(1);
      expect(logged.some((l) => l.maxmemoryPolicy !== undefined)).toBe(false);
    } finally {
      settings.disconnect();
    }
  });
});
