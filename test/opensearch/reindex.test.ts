import type { Client } from '@opensearch-project/opensearch';
import { sql } from 'kysely';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeBatch } from '../../indexer/cluster.js';
import { aliasTargets, createLoadingIndex, finishLoad, versionedIndices } from '../../indexer/index-admin.js';
import { IndexerMetrics } from '../../indexer/metrics.js';
import { pruneOutbox } from '../../indexer/outbox.js';
import { rebuildIndex, type RebuildStage } from '../../indexer/rebuild.js';
import { RebuildRequests } from '../../indexer/rebuild-requests.js';
import { deliverChanges, type DeliveryTarget } from '../../indexer/delivery.js';
import type { Database } from '../../src/db/database.js';
import { readStockDocumentsAfter } from '../../src/search/stock-documents.js';
import { documentVersion, indexedVersions, stockVersions } from '../helpers/index-contents.js';
import { clusterClient, dropAlias, TEST_OPENSEARCH_URL, uniqueAlias } from '../helpers/opensearch.js';
import { FIXTURE_ITEMS, loadStockFixture } from '../helpers/stock-fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { TEST_DATABASE_URL } from '../helpers/test-env.js';

const silent = pino({ level: 'silent' });

/** The segments of each primary shard of an index, in shard order. */
async function primarySegments(client: Client, index: string): Promise<number[]> {
  const answer = await client.indices.segments({ index });
  const shards = (
    answer.body.indices as Record<
      string,
      { shards: Record<string, { routing: { primary: boolean }; num_search_segments: number }[]> }
    >
  )[index]!.shards;
  return Object.keys(shards)
    .sort((a, b) => Number(a) - Number(b))
    .map((shard) => shards[shard]!.find((copy) => copy.routing.primary)!.num_search_segments);
}

const rowVersion = async (db: Database, id: number) =>
  Number(
    (await sql<{ version: string }>`select version from stock_items where id = ${id}`.execute(db)).rows[0]!
      .version,
  );

/**
 * Rebuilds (npm run reindex, and the indexer's own) on the live cluster, reading a real database:
 * what the new index holds, and the changes that arrive while it is built.
 */
describe.skipIf(!TEST_OPENSEARCH_URL || !TEST_DATABASE_URL)(
  'rebuilding the index on the live cluster',
  () => {
    let database: TestDatabase;
    let client: Client;
    const aliases: string[] = [];
    const db = () => database.handle.db;

    beforeAll(async () => {
      database = await createTestDatabase();
      await loadStockFixture(db());
      client = clusterClient();
    });
    afterAll(async () => {
      for (const alias of aliases) await dropAlias(client, alias);
      await client?.close();
      await database?.drop();
    });

    /** A throwaway alias, dropped after the file. */
    const newAlias = () => {
      const alias = uniqueAlias('rebuild');
      aliases.push(alias);
      return alias;
    };

    it('merges a loaded index into one segment per shard before it serves', async () => {
      const index = `${newAlias()}_v1`;
      await createLoadingIndex(client, index, 2);
      const documents = await readStockDocumentsAfter(db(), 0, 1_000);
      // three refreshes: three segments on a shard that got documents from each part
      for (const part of [documents.slice(0, 10), documents.slice(10, 20), documents.slice(20)]) {
        await writeBatch(client, index, { documents: part, deletions: [] });
        await client.indices.refresh({ index });
      }
      expect(Math.max(...(await primarySegments(client, index)))).toBeGreaterThan(1);
      await finishLoad(client, index);
      expect(await primarySegments(client, index)).toEqual([1, 1]);
      const count = await client.count({ index });
      expect(count.body.count).toBe(documents.length);
    });

    it('loads every item at its row version into a new index, restores its settings, swaps the alias, drops the old index', async () => {
      const alias = newAlias();
      const first = await rebuildIndex(db(), client, alias);
      expect(first).toEqual({ index: `${alias}_v1`, documents: FIXTURE_ITEMS.length, removed: [] });

      const progress: number[] = [];
      const second = await rebuildIndex(db(), client, alias, {
        batchSize: 10,
        progress: (n) => progress.push(n),
      });
      expect(second).toEqual({
        index: `${alias}_v2`,
        documents: FIXTURE_ITEMS.length,
        removed: [`${alias}_v1`],
      });
      expect(progress).toEqual([10, 20, 30, FIXTURE_ITEMS.length]);
      expect(await aliasTargets(client, alias)).toEqual([`${alias}_v2`]);
      expect(await versionedIndices(client, alias)).toEqual([`${alias}_v2`]);
      expect(await indexedVersions(client, alias)).toEqual(await stockVersions(db()));

      const settings = await client.indices.getSettings({ index: `${alias}_v2` });
      const index = Object.values(settings.body)[0]!.settings!.index as Record<string, unknown>;
      expect(index).toMatchObject({ refresh_interval: '1s', number_of_replicas: '1' });
      // nothing of the load's tuning is left behind: the translog and the merges as by default
      expect(index).not.toHaveProperty('merge');
      expect(index).toMatchObject({ translog: { durability: 'request' } });
      const aliasInfo = await client.indices.getAlias({ name: alias });
      expect(aliasInfo.body[`${alias}_v2`]!.aliases![alias]).toMatchObject({ is_write_index: true });
    });

    it('builds the number of primary shards it is given (OPENSEARCH_SHARDS), every item in it', async () => {
      const alias = newAlias();
      const built = await rebuildIndex(db(), client, alias, { shards: 3 });
      const settings = await client.indices.getSettings({ index: built.index });
      const index = Object.values(settings.body)[0]!.settings!.index as Record<string, unknown>;
      expect(index).toMatchObject({ number_of_shards: '3' });
      expect(await indexedVersions(client, alias)).toEqual(await stockVersions(db()));
    });

    it('rebuilds on the request a TRUNCATE leaves, once: the new index holds only the new stock', async () => {
      const own = await createTestDatabase();
      const alias = newAlias();
      try {
        await loadStockFixture(own.handle.db);
        await rebuildIndex(own.handle.db, client, alias);
        const requests = new RebuildRequests(own.handle.db, client, alias, silent);
        expect(await requests.check()).toBeNull();
        await sql`truncate stock_items cascade`.execute(own.handle.db);
        await sql`insert into stock_items (id, vendor_id, reference, title, condition, price, location_country_code)
                values (5000, 1, 'ONLY-5000', 'Único', 'novo', 10, 'PT')`.execute(own.handle.db);
        expect(await requests.check()).toEqual({
          index: `${alias}_v2`,
          documents: 1,
          removed: [`${alias}_v1`],
        });
        expect([...(await indexedVersions(client, alias)).keys()]).toEqual([5000]);
        expect(await requests.check()).toBeNull();
      } finally {
        await own.drop();
      }
    });

    describe('changes made while a rebuild runs', () => {
      let alias: string;
      let old: string;
      let writer: DeliveryTarget;
      const connections: pg.Client[] = [];

      beforeAll(async () => {
        alias = newAlias();
        await rebuildIndex(db(), client, alias);
        // The live worker's writer: through the alias, as the indexer writes.
        writer = {
          db: db(),
          client,
          alias,
          metrics: new IndexerMetrics(),
          logger: silent,
          rejectedRetrySeconds: 600,
        };
      });
      afterEach(async () => {
        for (const c of connections.splice(0)) await c.end().catch(() => undefined);
      });

      /** Runs a rebuild with `at` told its stages; returns the new index. */
      async function rebuildWith(at: Partial<Record<RebuildStage, (index: string) => Promise<void>>>) {
        old = (await aliasTargets(client, alias))[0]!;
        const result = await rebuildIndex(db(), client, alias, {
          onStage: async (stage, index) => at[stage]?.(index),
        });
        expect(result.removed).toEqual([old]);
        return result.index;
      }

      /** What the worker does for a change: reads the row, writes it through the alias. */
      const workerWrites = (id: number, version: number) =>
        deliverChanges(writer, [{ itemId: id, version, deleted: false }]);

      it('a change committed after the catch-up and before the swap, written by the worker through the alias into the old index, is in the new one', async () => {
        const index = await rebuildWith({
          'caught-up': async () => {
            await sql`update stock_items set price = 77.7 where id = 3`.execute(db());
            const version = await rowVersion(db(), 3);
            await workerWrites(3, version);
            // the alias still names the old index: that is where the worker's write went
            expect(await documentVersion(client, old, 3)).toBe(version);
          },
        });
        expect(await documentVersion(client, index, 3)).toBe(await rowVersion(db(), 3));
      });

      it('a second change to an item whose outbox row is still pending is replayed (the row keeps its id, not its change number)', async () => {
        // pending (never relayed: no relay runs here) before the rebuild begins
        await sql`update stock_items set quantity = quantity + 1 where id = 4`.execute(db());
        const index = await rebuildWith({
          // after the load read item 4; its pending row is updated in place
          loaded: async () => {
            await sql`update stock_items set price = 44.4 where id = 4`.execute(db());
          },
        });
        const pending = await sql<{ n: string }>`
        select count(*) as n from search_outbox where item_id = 4 and done_at is null`.execute(db());
        expect(Number(pending.rows[0]!.n)).toBe(1);
        expect(await documentVersion(client, index, 4)).toBe(await rowVersion(db(), 4));
      });

      it('a change uncommitted when the rebuild starts and committed during it reaches the new index', async () => {
        const open = new pg.Client({ connectionString: database.url! });
        connections.push(open);
        await open.connect();
        await open.query('begin');
        await open.query('update stock_items set price = 55.5 where id = 5');
        let committed = false;
        const commit = async () => {
          if (committed) return;
          committed = true;
          await open.query('commit');
        };
        // The rebuild either waits at its mark for the open transaction (then it is committed a
        // moment later, and the wait ends) or goes on without it (then it is committed once the load
        // has read the old row, before the changes are replayed).
        const later = setTimeout(() => void commit(), 1_500);
        const index = await rebuildWith({ loaded: commit });
        clearTimeout(later);
        expect(
          (await sql<{ price: string }>`select price from stock_items where id = 5`.execute(db())).rows[0]!
            .price,
        ).toBe('55.50');
        expect(await documentVersion(client, index, 5)).toBe(await rowVersion(db(), 5));
      });

      it('a transaction open in another database on the server does not hold the rebuild back', async () => {
        // Another database's writers never write this outbox: waiting for them (as a server-wide
        // snapshot would) could hold a rebuild for as long as someone else's transaction lasts.
        const other = await createTestDatabase();
        const open = new pg.Client({ connectionString: other.url! });
        connections.push(open);
        try {
          await open.connect();
          await open.query('begin');
          await open.query('update stock_items set price = 1 where id = 1');
          const alias = newAlias();
          const built = await rebuildIndex(db(), client, alias);
          expect(built.documents).toBe(
            Number(
              (await sql<{ n: string }>`select count(*) as n from stock_items`.execute(db())).rows[0]!.n,
            ),
          );
          await open.query('rollback');
        } finally {
          await open.end().catch(() => undefined);
          await other.drop();
        }
      });

      it('outbox rows a rebuild still has to replay are kept from pruning; those before its mark, or of a dead rebuild, are not', async () => {
        // settled over an hour ago, before the rebuild: prunable
        await sql`update stock_items set quantity = quantity + 1 where id = 7`.execute(db());
        await sql`update search_outbox set done_at = now() - interval '2 hours'`.execute(db());
        // a rebuild whose process died twenty minutes ago (heartbeat stopped) holds nothing back
        await sql`insert into search_rebuilds (index_name, change_mark, heartbeat_at)
                values ('dead_rebuild_v1', 0, now() - interval '20 minutes')`.execute(db());
        let kept: number[] = [];
        const index = await rebuildWith({
          loaded: async () => {
            // a change during a long rebuild, settled, its row over an hour old when pruning runs
            await sql`update stock_items set price = 88.8 where id = 8`.execute(db());
            await sql`update search_outbox set done_at = now() - interval '2 hours' where done_at is null`.execute(
              db(),
            );
            await pruneOutbox(db(), 3_600);
            const left = await sql<{
              item_id: string;
            }>`select item_id from search_outbox order by change_seq`.execute(db());
            kept = left.rows.map((r) => Number(r.item_id));
          },
        });
        expect(await documentVersion(client, index, 8)).toBe(await rowVersion(db(), 8));
        expect(kept, 'rows left by the pruning during the rebuild').toEqual([8]);
        // the rebuild is over: nothing holds its rows any more
        await pruneOutbox(db(), 3_600);
        expect(
          Number(
            (await sql<{ n: string }>`select count(*) as n from search_outbox`.execute(db())).rows[0]!.n,
          ),
        ).toBe(0);
        await sql`delete from search_rebuilds`.execute(db());
      });
    });
  },
);
