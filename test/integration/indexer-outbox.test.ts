import { errors } from '@opensearch-project/opensearch';
import { ClusterMock, VersionedBulkCluster, mockClient } from '../opensearch/mock-cluster.js';
import type { Queue } from 'bullmq';
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { OpenSearchEngine } from '../../src/search/opensearch-engine.js';
import { IndexerMetrics } from '../../indexer/metrics.js';
import { enableOutbox } from '../../indexer/outbox.js';
import { OutboxRelay } from '../../indexer/relay.js';
import { BatchIndexer, createIndexQueue, startWorker, type IndexJob } from '../../indexer/worker.js';
import { createTestAccount } from '../helpers/accounts-fixture.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { runScript } from '../helpers/run-script.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../helpers/test-env.js';

const logger = pino({ level: 'silent' });

describe('search through HTTP while the cluster is down', () => {
  let app: TestApp;
  const mock = new ClusterMock();
  beforeAll(async () => {
    mock.add(
      { method: ['GET', 'POST', 'HEAD'], path: '*' },
      () => new errors.ConnectionError('connect ECONNREFUSED'),
    );
    const client = mockClient(mock);
    app = await startTestApp({ overrides: { engine: new OpenSearchEngine(client, { index: 'stock' }) } });
    await loadStockFixture(app.services.db);
  });
  afterAll(() => app.close());

  it('answers 503 SERVICE_UNAVAILABLE and charges nothing', async () => {
    const account = await createTestAccount(app.services.db, new ManualClock(), { credits: 5 });
    const response = await app.api
      .withApiKey(account.apiKey)
      .post<{ code: string; success: boolean }>('/data/search', { reference: '1K0 615 301 AA' });
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ success: false, code: 'SERVICE_UNAVAILABLE' });
    const row = await app.services.db
      .selectFrom('accounts')
      .select('credits')
      .where('id', '=', account.accountId)
      .executeTakeFirstOrThrow();
    expect(row.credits).toBe(5);
  });
});

describe('outbox triggers (PostgreSQL and PGlite)', () => {
  it('records nothing while no indexer enabled it', async () => {
    const database = await createTestDatabase();
    try {
      await loadStockFixture(database.handle.db);
      await sql`update stock_items set price = price + 1`.execute(database.handle.db);
      await sql`delete from stock_items where id = 7`.execute(database.handle.db);
      const n = await sql<{ n: string }>`select count(*) as n from search_outbox`.execute(database.handle.db);
      expect(Number(n.rows[0]!.n)).toBe(0);
    } finally {
      await database.drop();
    }
  });
  it('once an indexer enabled it, each item keeps one pending row with its latest version', async () => {
    await withOutbox(async (db) => {
      const before = await maxVersion(db);
      await sql`update stock_items set price = price + 1 where id in (1, 2)`.execute(db);
      await sql`update stock_items set quantity = 5 where id = 1`.execute(db);
      await sql`insert into stock_item_references (item_id, reference) values (2, 'X-2')`.execute(db);
      await sql`delete from stock_items where id = 8`.execute(db);
      // A group reference changes the documents of every item of the group (1, 2, 3).
      await sql`insert into xref_group_references (group_id, reference) values (1, 'GRP-NEW')`.execute(db);
      const rows = await pendingRows(db);
      const versions = await sql<{ id: string; version: string }>`
      select id, version from stock_items where id in (1, 2, 3) order by id`.execute(db);
      const tombstone = rows.find((r) => r.item_id === '8');
      expect(rows).toEqual([
        ...versions.rows.map((v) => ({ item_id: v.id, version: v.version, deleted: false })),
        { item_id: '8', version: tombstone?.version, deleted: true },
      ]);
      // Every change drew a version above all earlier ones; the group change came last.
      const drawn = rows.map((r) => Number(r.version));
      expect(Math.min(...drawn)).toBeGreaterThan(before);
      expect(new Set(drawn).size).toBe(drawn.length);
      expect(Number(tombstone!.version)).toBeLessThan(Number(versions.rows[2]!.version));
    });
  });

  it('an id inserted again after its delete outranks its tombstone', async () => {
    await withOutbox(async (db) => {
      await sql`delete from stock_items where id = 7`.execute(db);
      const [tombstone] = await pendingRows(db);
      expect(tombstone).toMatchObject({ item_id: '7', deleted: true });
      await sql`update search_outbox set done_at = now()`.execute(db);
      await sql`insert into stock_items (id, vendor_id, reference, title, condition, price, location_country_code)
              values (7, 1, 'AGAIN-7', 'De volta', 'novo', 10, 'PT')`.execute(db);
      const [again] = await pendingRows(db);
      expect(again).toMatchObject({ item_id: '7', deleted: false });
      expect(Number(again!.version)).toBeGreaterThan(Number(tombstone!.version));
    });
  });

  it('a TRUNCATE of the stock asks for a rebuild, only while an indexer is in use', async () => {
    const database = await createTestDatabase();
    const db = database.handle.db;
    const requested = async () =>
      (
        await sql<{ at: Date | null }>`select rebuild_requested_at as at from search_indexer_state`.execute(
          db,
        )
      ).rows[0]!.at;
    try {
      await loadStockFixture(db);
      await sql`truncate stock_items cascade`.execute(db);
      expect(await requested()).toBeNull();
      await sql`insert into stock_items (id, vendor_id, reference, title, condition, price, location_country_code)
                values (1, 1, 'NEW-1', 'Novo', 'novo', 10, 'PT')`.execute(db);
      await enableOutbox(db);
      await sql`truncate stock_items cascade`.execute(db);
      expect(await requested()).toBeInstanceOf(Date);
    } finally {
      await database.drop();
    }
  });
});

describe.skipIf(!TEST_DATABASE_URL)('npm run indexer:disable', () => {
  it('stops recording, drops what was pending, and a later indexer start asks for a rebuild', async () => {
    await withOutbox(async (db, database) => {
      await sql`update stock_items set price = price + 1 where id in (1, 2, 3)`.execute(db);
      expect(await pendingRows(db)).toHaveLength(3);

      const run = await runScript('../indexer/disable.ts', [], {
        DATABASE_URL: database.url!,
        LOG_LEVEL: 'silent',
      });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('3 alterações pendentes descartadas');
      await sql`update stock_items set price = price + 1 where id = 4`.execute(db);
      expect(await pendingRows(db)).toEqual([]);

      await enableOutbox(db);
      const state = await sql<{ enabled: boolean; at: Date | null }>`
      select enabled, rebuild_requested_at as at from search_indexer_state`.execute(db);
      expect(state.rows[0]).toMatchObject({ enabled: true, at: expect.any(Date) });
    });
  });
});

/** A fresh database with the fixture and the outbox switched on, dropped afterwards. */
async function withOutbox(test: (db: Database, database: TestDatabase) => Promise<void>): Promise<void> {
  const database = await createTestDatabase();
  try {
    await loadStockFixture(database.handle.db);
    await enableOutbox(database.handle.db);
    await test(database.handle.db, database);
  } finally {
    await database.drop();
  }
}

async function maxVersion(db: Database): Promise<number> {
  const r = await sql<{ v: string }>`select max(version) as v from stock_items`.execute(db);
  return Number(r.rows[0]!.v);
}

async function pendingRows(db: Database) {
  return (
    await sql<{ item_id: string; version: string; deleted: boolean }>`
      select item_id, version, deleted from search_outbox where done_at is null order by item_id`.execute(db)
  ).rows;
}

describe.skipIf(!TEST_REDIS_URL)(
  'indexer: outbox → queue → bulk (real Postgres and Redis, mock cluster)',
  () => {
    let database: TestDatabase;
    let queue: Queue<IndexJob>;
    let relay: OutboxRelay;
    const mock = new ClusterMock();
    const client = mockClient(mock);
    const fake = new VersionedBulkCluster(mock);
    /** what the cluster holds: id → version (external versioning as the cluster applies it) */
    const cluster = fake.versions;
    const bulks = fake.bulks;
    const metrics = new IndexerMetrics();
    let batcher: BatchIndexer;
    let worker: ReturnType<typeof startWorker>;
    const url = new URL(TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
    const connection = { host: url.hostname, port: Number(url.port || 6379), maxRetriesPerRequest: null };

    beforeAll(async () => {
      database = await createTestDatabase();
      await loadStockFixture(database.handle.db);
      await enableOutbox(database.handle.db);
      // A queue of its own per run: the prefix keeps parallel runs on one Redis apart.
      const prefix = `pss-test-${process.pid}-${Date.now()}`;
      queue = createIndexQueue(connection, { prefix });
      batcher = new BatchIndexer(database.handle.db, client, 'stock', metrics, logger, 10);
      worker = startWorker(connection, batcher, logger, { concurrency: 50, prefix });
      relay = new OutboxRelay(database.handle.db, queue, metrics, logger);
    });
    afterAll(async () => {
      await worker?.close();
      await queue?.obliterate({ force: true }).catch(() => undefined);
      await queue?.close();
      await database?.drop();
    });
    beforeEach(() => {
      bulks.length = 0;
    });

    const pending = async () =>
      (
        await sql<{ item_id: string; version: string; deleted: boolean }>`
      select item_id, version, deleted from search_outbox where done_at is null order by id`.execute(
          database.handle.db,
        )
      ).rows;

    /** Relays and waits until the queue is empty. */
    async function settle(): Promise<number> {
      const relayed = await relay.drain();
      for (let i = 0; i < 200; i++) {
        const counts = await queue.getJobCounts('waiting', 'active', 'delayed');
        if ((counts.waiting ?? 0) + (counts.active ?? 0) + (counts.delayed ?? 0) === 0) return relayed;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('queue did not drain');
    }

    it('an insert writes one outbox row, one job, one index action with the row version', async () => {
      await sql`insert into stock_items (id, vendor_id, reference, title, condition, price, location_country_code)
              values (900, 1, 'NEW-900', 'Novo item', 'novo', 10, 'PT')`.execute(database.handle.db);
      const inserted = await maxVersion(database.handle.db);
      expect(await pending()).toEqual([{ item_id: '900', version: String(inserted), deleted: false }]);
      expect(await settle()).toBe(1);
      expect(bulks).toHaveLength(1);
      expect(bulks[0]![0]).toEqual({
        index: { _index: 'stock', _id: '900', version: inserted, version_type: 'external' },
      });
      expect(bulks[0]![1]).toMatchObject({ id: 900, reference: 'NEW-900', references_norm: ['NEW900'] });
      expect(cluster.get('900')).toBe(inserted);
    });

    it('an update (row and its references in one transaction) is one row and one index action at the new version', async () => {
      await database.handle.db.transaction().execute(async (trx) => {
        await sql`update stock_items set price = 11 where id = 900`.execute(trx);
        await sql`insert into stock_item_references (item_id, reference) values (900, 'ALT 900')`.execute(
          trx,
        );
      });
      const rows = await pending();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ item_id: '900', deleted: false });
      const version = Number(rows[0]!.version);
      expect(version).toBeGreaterThan(cluster.get('900')!);
      await settle();
      expect(bulks).toHaveLength(1);
      expect(bulks[0]![0]).toEqual({
        index: { _index: 'stock', _id: '900', version, version_type: 'external' },
      });
      expect(bulks[0]![1]).toMatchObject({ price: 11, references_norm: ['NEW900', 'ALT900'] });
      expect(cluster.get('900')).toBe(version);
    });

    it('a repeated outbox delivery is deduped by the job id', async () => {
      await sql`update stock_items set quantity = 3 where id = 900`.execute(database.handle.db);
      await settle();
      expect(bulks).toHaveLength(1);
      // The same change relayed again (as after a crash before the commit): same job id, no new job.
      await sql`update search_outbox set done_at = null where id = (select max(id) from search_outbox)`.execute(
        database.handle.db,
      );
      expect(await settle()).toBe(1);
      expect(bulks).toHaveLength(1);
    });

    it('a stale job never overwrites a newer document', async () => {
      const before = cluster.get('900')!;
      // A late job for an old version: the worker writes the current row, whose version the
      // cluster already holds, so the write is refused as stale and nothing regresses.
      await queue.add('index', { itemId: 900, version: 1, deleted: false }, { jobId: 'late-900-v1' });
      await settle();
      expect(bulks).toHaveLength(1);
      expect(cluster.get('900')).toBe(before);
      expect(metrics.stale).toBeGreaterThan(0);
    });

    it('a delete becomes one tombstone with a version above the last one', async () => {
      const before = cluster.get('900')!;
      await sql`delete from stock_items where id = 900`.execute(database.handle.db);
      const [tombstone] = await pending();
      expect(tombstone).toMatchObject({ item_id: '900', deleted: true });
      const version = Number(tombstone!.version);
      expect(version).toBeGreaterThan(before);
      await settle();
      expect(bulks).toHaveLength(1);
      expect(bulks[0]).toEqual([
        { delete: { _index: 'stock', _id: '900', version, version_type: 'external' } },
      ]);
      expect(cluster.get('900')).toBe(version);
    });
  },
);
