import type { Client } from '@opensearch-project/opensearch';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aliasTargets } from '../../indexer/index-admin.js';
import type { Database } from '../../src/db/database.js';
import { differences, indexedVersions, stockVersions } from '../helpers/index-contents.js';
import {
  CAN_RUN_INDEXER,
  clusterClient,
  dropAlias,
  dropIndexerQueue,
  startIndexerProcess,
  TEST_OPENSEARCH_URL,
  uniqueAlias,
  type IndexerProcess,
} from '../helpers/opensearch.js';
import { runScript } from '../helpers/run-script.js';
import { insertGeneratedItems, loadStockFixture } from '../helpers/stock-fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

const GENERATED_FROM = 10_000;
const GENERATED = 10_000;

/**
 * Stock changes of every kind, one transaction each, back to back until stopped: price updates,
 * new items, deletions, new associated references.
 */
function startWriter(db: Database) {
  const live = Array.from({ length: GENERATED }, (_, i) => GENERATED_FROM + i);
  let nextId = 100_000;
  let running = true;
  let changes = 0;
  const pick = () => live[Math.floor(Math.random() * live.length)]!;
  const loop = (async () => {
    while (running) {
      const kind = changes % 4;
      if (kind === 0) await sql`update stock_items set price = price + 1 where id = ${pick()}`.execute(db);
      else if (kind === 1) {
        const id = nextId++;
        await sql`insert into stock_items (id, vendor_id, reference, title, condition, price, location_country_code)
                  values (${id}, 2, ${`NEW-${id}`}, 'Novo durante o reindex', 'novo', 9.99, 'ES')`.execute(
          db,
        );
        live.push(id);
      } else if (kind === 2) {
        const index = Math.floor(Math.random() * live.length);
        const [id] = live.splice(index, 1);
        await sql`delete from stock_items where id = ${id}`.execute(db);
      } else {
        await sql`insert into stock_item_references (item_id, reference) values (${pick()}, ${`ALT-${changes}`})`.execute(
          db,
        );
      }
      changes++;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  return {
    changes: () => changes,
    async stop() {
      running = false;
      await loop;
      return changes;
    },
  };
}

/**
 * `npm run reindex` on the live cluster while the indexer runs and stock changes keep arriving:
 * once the changes stop and the indexer has caught up, the index holds exactly the stock, every
 * item at its row version. Nothing made during the load, the catch-up or the swap is lost.
 */
describe.skipIf(!CAN_RUN_INDEXER)('npm run reindex while the stock keeps changing', () => {
  let database: TestDatabase;
  let indexer: IndexerProcess | null = null;
  let client: Client;
  const alias = uniqueAlias('reindex');

  beforeAll(async () => {
    database = await createTestDatabase();
    await loadStockFixture(database.handle.db);
    await insertGeneratedItems(database.handle.db, GENERATED_FROM, GENERATED);
    client = clusterClient();
    indexer = await startIndexerProcess({ databaseUrl: database.url!, alias });
  }, 180_000);
  afterAll(async () => {
    await indexer?.stop();
    if (client) await dropAlias(client, alias);
    await client?.close();
    await dropIndexerQueue(alias);
    await database?.drop();
  });

  it('loses nothing: the rebuilt index holds every item at its row version', async () => {
    expect(await aliasTargets(client, alias)).toEqual([`${alias}_v1`]);
    const writer = startWriter(database.handle.db);
    try {
      // some changes before the reindex begins, so there is a backlog in flight
      while (writer.changes() < 50) await new Promise((resolve) => setTimeout(resolve, 10));
      const before = writer.changes();
      const run = await runScript('../indexer/reindex.ts', [], {
        DATABASE_URL: database.url!,
        OPENSEARCH_URL: TEST_OPENSEARCH_URL!,
        OPENSEARCH_INDEX: alias,
        LOG_LEVEL: 'warn',
      });
      const during = writer.changes() - before;
      console.log(
        `[reindex while writing] ${run.stdout.trim().split('\n').at(-1)}; ${during} stock changes meanwhile`,
      );
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toContain(`alias ${alias} → ${alias}_v2; removidos: ${alias}_v1`);
      // its progress, without a terminal: the load's lines, what follows it, the verification's
      expect(run.stderr).toMatch(/^reindex 0% \| 0\/\d+ documentos/);
      expect(run.stderr).toMatch(/\nreindex 100% \| (\d+)\/\1 documentos .*\nreindex: carregado; /);
      expect(run.stderr).toMatch(/\nverificação 100% \| (\d+)\/\1 intervalos \| ETA 0s\n/);
      expect(during).toBeGreaterThan(0);
    } finally {
      await writer.stop();
    }
    expect(await aliasTargets(client, alias)).toEqual([`${alias}_v2`]);

    // the indexer follows the last changes; then the index must be the stock, exactly
    const until = Date.now() + 60_000;
    for (;;) {
      const left = differences(await indexedVersions(client, alias), await stockVersions(database.handle.db));
      if (left.length === 0 || Date.now() > until) {
        expect(left).toEqual([]);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }, 180_000);
});
