import type { Client } from '@opensearch-project/opensearch';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBatch } from '../../indexer/cluster.js';
import { createIndexQueue, redisConnection } from '../../indexer/index-queue.js';
import { readStockDocuments } from '../../src/search/stock-documents.js';
import { createTestAccount, type TestAccount } from '../helpers/accounts-fixture.js';
import { startEngineApp, type EngineApp } from '../helpers/engine-app.js';
import { CAN_RUN_INDEXER, clusterClient, waitUntil } from '../helpers/opensearch.js';
import { insertStockItems, loadStockFixture } from '../helpers/stock-fixture.js';
import { TEST_REDIS_URL } from '../helpers/test-env.js';
import type { SearchAnswer } from '../../web/src/api-types.js';

/**
 * `npm run indexer` as its own process over a database of the test's, the API on OpenSearch in
 * front of the alias it keeps: a stock change committed in PostgreSQL becomes what a search
 * through the API answers, with the row's version as the document's external version. The time
 * from the commit to the first search that shows the change is printed (no bound is asserted).
 */
describe.skipIf(!CAN_RUN_INDEXER)(
  'the indexer, end to end: PostgreSQL → indexer process → OpenSearch → API',
  () => {
    let app: EngineApp;
    let account: TestAccount;
    let client: Client;
    let alias: string;
    const lags: string[] = [];

    beforeAll(async () => {
      app = await startEngineApp('opensearch', (db) => loadStockFixture(db));
      alias = app.engineEnv.OPENSEARCH_INDEX!;
      account = await createTestAccount(app.services.db, app.clock, { credits: 100_000 });
      client = clusterClient();
    });
    afterAll(async () => {
      console.log(`[indexer lag] commit → searchable through the API: ${lags.join('; ')}`);
      await client?.close();
      await app?.close();
    });

    const db = () => app.services.db;
    const search = async (body: Record<string, unknown>) =>
      (await app.api.withApiKey(account.apiKey).post<SearchAnswer>('/data/search', body)).body;

    /** Runs `change` (committed when it returns), then searches until `seen` holds; records the lag. */
    async function changeUntilSearchable(
      what: string,
      change: () => Promise<unknown>,
      body: Record<string, unknown>,
      seen: (answer: SearchAnswer) => boolean,
    ): Promise<void> {
      await change();
      const committed = Date.now();
      await waitUntil(async () => seen(await search(body)), `${what} to be searchable`, 30_000);
      lags.push(`${what} ${Date.now() - committed} ms`);
    }

    const rowVersion = async (id: number) =>
      Number(
        (await sql<{ version: string }>`select version from stock_items where id = ${id}`.execute(db()))
          .rows[0]!.version,
      );
    const indexed = async (id: number) => {
      const answer = await client.get({ index: alias, id: String(id) }, { ignore: [404] });
      return answer.body.found ? { version: answer.body._version! } : null;
    };

    it('an insert becomes searchable at its row version', async () => {
      await changeUntilSearchable(
        'insert',
        () =>
          insertStockItems(db(), [
            {
              id: 900,
              vendorId: 1,
              reference: 'NEW-900',
              title: 'Farol novo',
              condition: 'novo',
              price: 10,
              country: 'PT',
            },
          ]),
        { reference: 'new 900' },
        (a) => a.total === 1,
      );
      expect(await indexed(900)).toEqual({ version: await rowVersion(900) });
    });

    it('an update of the row and of its references in one transaction is one newer version, searchable by both', async () => {
      const before = await rowVersion(900);
      await changeUntilSearchable(
        'update',
        () =>
          db()
            .transaction()
            .execute(async (trx) => {
              await sql`update stock_items set price = 11.5 where id = 900`.execute(trx);
              await sql`insert into stock_item_references (item_id, reference) values (900, 'ALT 900')`.execute(
                trx,
              );
            }),
        { reference: 'alt-900' },
        (a) => a.total === 1 && a.results[0]!.preco === 11.5,
      );
      const after = await rowVersion(900);
      expect(after).toBeGreaterThan(before);
      expect(await indexed(900)).toEqual({ version: after });
      expect((await search({ reference: 'alt 900' })).results[0]!.referencia_encontrada).toBe('ALT 900');
    });

    it('a new reference of a cross-reference group reaches every item of the group', async () => {
      const group = (
        await sql<{ id: string }>`select id from stock_items where xref_group_id = 1 order by id`.execute(
          db(),
        )
      ).rows.map((r) => Number(r.id));
      expect(group.length).toBeGreaterThan(1);
      await changeUntilSearchable(
        'group reference',
        () =>
          sql`insert into xref_group_references (group_id, reference) values (1, 'GRP 777')`.execute(db()),
        { reference: 'grp777' },
        (a) => a.total === group.length,
      );
      for (const id of group) expect(await indexed(id)).toEqual({ version: await rowVersion(id) });
    });

    it('a delete leaves a tombstone: gone from searches, and an older write of the item is refused', async () => {
      const [last] = await readStockDocuments(db(), [900]);
      await changeUntilSearchable(
        'delete',
        () => sql`delete from stock_items where id = 900`.execute(db()),
        { reference: 'new 900' },
        (a) => a.total === 0,
      );
      expect(await indexed(900)).toBeNull();
      // The last version the item had, written late (as a job delayed past the delete would):
      // the tombstone's higher version refuses it.
      const late = await writeBatch(client, alias, { documents: [last!], deletions: [] }, true);
      expect(late).toMatchObject({ stale: 1, rejected: [], failed: [] });
      expect(await indexed(900)).toBeNull();
    });

    it('an id inserted again after its delete outranks its tombstone', async () => {
      await changeUntilSearchable(
        'insert after delete',
        () =>
          insertStockItems(db(), [
            {
              id: 900,
              vendorId: 2,
              reference: 'AGAIN-900',
              title: 'De volta',
              condition: 'usado_bom',
              price: 12,
              country: 'ES',
            },
          ]),
        { reference: 'again 900' },
        (a) => a.total === 1,
      );
      expect(await indexed(900)).toEqual({ version: await rowVersion(900) });
    });

    it('a late job for an old version, and a change handed out again, never write older data', async () => {
      const queue = createIndexQueue(redisConnection(TEST_REDIS_URL!, 'producer'), alias);
      try {
        const current = await rowVersion(6);
        await changeUntilSearchable(
          'update (price)',
          () => sql`update stock_items set price = 151 where id = 6`.execute(db()),
          { reference: '9665617780' },
          (a) => a.results[0]?.preco === 151,
        );
        const latest = await rowVersion(6);
        expect(latest).toBeGreaterThan(current);
        // A job naming the version before: the worker writes the current row, whose version the
        // index already holds; nothing changes.
        const late = await queue.add('index', { changes: [{ itemId: 6, version: current, deleted: false }] });
        await waitUntil(async () => (await late.getState()) === 'completed', 'the late job');
        expect(await indexed(6)).toEqual({ version: latest });

        // The settled row owed again (as when a confirmation is lost): the relay hands it out once
        // more, the index acknowledges the version it already holds, and the row is settled again.
        const row = (
          await sql<{
            id: string;
          }>`select id from search_outbox where item_id = 6 and version = ${latest}`.execute(db())
        ).rows[0]!;
        await sql`update search_outbox set done_at = null, available_at = now() where id = ${row.id}`.execute(
          db(),
        );
        await waitUntil(
          async () =>
            (
              await sql<{
                done: boolean;
              }>`select done_at is not null as done from search_outbox where id = ${row.id}`.execute(db())
            ).rows[0]!.done,
          'the row to be handed out and settled again',
        );
        expect(await indexed(6)).toEqual({ version: latest });
      } finally {
        await queue.close();
      }
    });

    it('serves its figures on /metrics and in its log lines, and ends cleanly on SIGTERM', async () => {
      const indexer = app.indexer!;
      await indexer.waitForOutput('"owed"');
      expect(indexer.output()).toMatch(/"docsPerSecond":/);
      const scraped = await (await fetch(indexer.metricsUrl())).text();
      expect(scraped).toMatch(/^search_indexer_documents_indexed_total [1-9]/m);
      expect(scraped).toMatch(/^search_indexer_documents_deleted_total [1-9]/m);
      expect(scraped).toMatch(/^search_indexer_stale_versions_total [1-9]/m);
      expect(scraped).toMatch(/^search_outbox_lag_seconds \d/m);
      expect(scraped).toMatch(/^search_outbox_pending_rows \d/m);
      expect(scraped).toMatch(/^search_index_drift_items /m);
      expect(scraped).toMatch(/^search_indexer_redis_noeviction [01]/m);
      const ready = await fetch(indexer.readyUrl());
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ ready: true, index_built: true });
      expect(scraped).toMatch(/^process_resident_memory_bytes /m);
      expect(await indexer.stop()).toBe(0);
      expect(indexer.output()).toContain('indexer stopped');
    });
  },
);
