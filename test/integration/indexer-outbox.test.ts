import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { enableOutbox } from '../../indexer/outbox.js';
import type { Database } from '../../src/db/database.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { runScript } from '../helpers/run-script.js';
import { TEST_DATABASE_URL } from '../helpers/test-env.js';

/**
 * The outbox triggers (sql/0020, 0021, 0029) and npm run indexer:disable: what PostgreSQL records
 * for the indexer, no cluster needed. What the indexer then does with it, on the live cluster:
 * test/opensearch/indexer.test.ts, reindex*.test.ts and test/faults/.
 */
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

  it('a change to an item whose row is still pending draws a new change number (what a rebuild replays after)', async () => {
    await withOutbox(async (db) => {
      const changes = async () =>
        (
          await sql<{ id: string; change_seq: string }>`
            select id, change_seq from search_outbox where item_id = 5 and done_at is null`.execute(db)
        ).rows;
      await sql`update stock_items set price = price + 1 where id = 5`.execute(db);
      const [first] = await changes();
      await sql`update stock_items set quantity = quantity + 1 where id = 5`.execute(db);
      const [second, ...more] = await changes();
      expect(more).toEqual([]);
      expect(second!.id).toBe(first!.id);
      expect(Number(second!.change_seq)).toBeGreaterThan(Number(first!.change_seq));
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
      // the search indexes are all built: nothing to warn about (search-indexes-cli.test.ts: set aside)
      expect(run.stdout).not.toContain('Aviso');
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
