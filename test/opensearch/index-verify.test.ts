import type { Client } from '@opensearch-project/opensearch';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stockIndexDefinition } from '../../indexer/index-admin.js';
import { startIndexer, type IndexerHandle } from '../../indexer/indexer.js';
import { ledgerStatus, listRejected } from '../../indexer/outbox.js';
import { loadConfig } from '../../src/config.js';
import { toSource } from '../../src/search/opensearch/documents.js';
import { readStockDocuments } from '../../src/search/stock-documents.js';
import { confirmDifferences, type Difference } from '../../indexer/verify/range-check.js';
import { indexMismatches } from '../helpers/index-contents.js';
import {
  CAN_RUN_INDEXER,
  clusterClient,
  dropAlias,
  TEST_OPENSEARCH_URL,
  uniqueAlias,
} from '../helpers/opensearch.js';
import { runScript } from '../helpers/run-script.js';
import { insertGeneratedItems, loadStockFixture } from '../helpers/stock-fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { TEST_REDIS_URL } from '../helpers/test-env.js';
import { waitUntil } from '../helpers/wait-until.js';

const silent = pino({ level: 'silent' });

/**
 * npm run index:verify [-- --repair] on the live cluster, with the real indexer running beside it
 * (its own sweep off, so that what finds and repairs the differences is the command): documents
 * deleted, added and overwritten behind the indexer's back, and a document the cluster refuses.
 */
describe.skipIf(!CAN_RUN_INDEXER)('index:verify: drift found and repaired', () => {
  let database: TestDatabase;
  let admin: Client;
  let indexer: IndexerHandle;
  const alias = uniqueAlias('verify');
  const db = () => database.handle.db;

  beforeAll(async () => {
    database = await createTestDatabase();
    await loadStockFixture(db());
    await insertGeneratedItems(db(), 1_000, 3_000);
    admin = clusterClient();
    const config = loadConfig({
      DATABASE_URL: database.url!,
      REDIS_URL: TEST_REDIS_URL!,
      OPENSEARCH_URL: TEST_OPENSEARCH_URL!,
      OPENSEARCH_INDEX: alias,
      INDEXER_SWEEP_PERIOD_SECONDS: '0',
      INDEXER_REJECTED_RETRY_SECONDS: '1',
      INDEXER_RETRY_FIRST_MS: '100',
      INDEXER_RETRY_MAX_MS: '500',
    });
    indexer = await startIndexer(config, silent, { metricsPort: null, logEveryMs: 60_000 });
  });
  afterAll(async () => {
    await indexer?.stop();
    if (admin) await dropAlias(admin, alias);
    await admin?.close();
    await database?.drop();
  });

  const verify = (...args: string[]) =>
    runScript('../indexer/verify-cli.ts', ['--range-size', '500', ...args], {
      DATABASE_URL: database.url!,
      OPENSEARCH_URL: TEST_OPENSEARCH_URL!,
      OPENSEARCH_INDEX: alias,
      LOG_LEVEL: 'silent',
    });
  const settled = () =>
    waitUntil(async () => (await ledgerStatus(db())).owed === 0, 'every change to be confirmed', 30_000);
  const rowVersion = async (id: number) =>
    Number(
      (await sql<{ version: string }>`select version from stock_items where id = ${id}`.execute(db()))
        .rows[0]!.version,
    );
  const source = async (id: number) => toSource((await readStockDocuments(db(), [id]))[0]!);
  /** The summary line of one kind of difference: its count and the ids it names. */
  const line = (stdout: string, label: string) => stdout.split('\n').find((l) => l.includes(label)) ?? '';

  it('a clean index verifies clean', async () => {
    await settled();
    const run = await verify();
    expect(run.stdout).toContain('O índice está igual ao PostgreSQL.');
    expect(run.code).toBe(0);
  });

  it('finds documents deleted, added and overwritten behind the indexer\u2019s back, each by its kind (and a row changed with the triggers off); --repair writes them again, a change made during the repair still wins, and they verify clean', async () => {
    // deleted by hand
    await admin.delete({ index: alias, id: '1001' });
    // a document no row stands for
    await admin.index({
      index: alias,
      id: '99999',
      body: { ...(await source(1002)), id: 99_999 },
      version: 5,
      version_type: 'external',
    });
    // overwritten with a version above anything the database has given out
    const v1003 = await rowVersion(1003);
    await admin.index({
      index: alias,
      id: '1003',
      body: { ...(await source(1003)), price: 1 },
      version: v1003 + 1_000_000,
      version_type: 'external',
    });
    // a partial update (the cluster bumps the version itself)
    await admin.update({ index: alias, id: '1004', body: { doc: { price: 2 } } });
    // the row changed with the triggers off (as pg_restore --disable-triggers or a replication apply
    // does): the same version, other content
    await database.handle.db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await sql`update stock_items set price = price + 7 where id = 1005`.execute(trx);
    });

    // The drift stands for writes made some time before the check: refreshed into searches, as
    // index:verify reads the index (a write within the last refresh interval is the next run's).
    await admin.indices.refresh({ index: alias });

    const found = await verify();
    expect(found.code, found.stdout + found.stderr).toBe(1);
    expect(line(found.stdout, 'em falta no índice')).toMatch(/\s1\s+\(ids 1001\)/);
    expect(line(found.stdout, 'a mais no índice')).toMatch(/\s1\s+\(ids 99999\)/);
    expect(line(found.stdout, 'noutra versão')).toMatch(/\s2\s+\(ids 1003, 1004\)/);
    expect(line(found.stdout, 'com outro conteúdo')).toMatch(/\s1\s+\(ids 1005\)/);

    // Changes keep coming to some of those items while the repair runs.
    let changing = true;
    const changes = (async () => {
      for (let n = 0; changing; n++) {
        await sql`update stock_items set quantity = ${n} where id in (1001, 1003, 1005)`.execute(db());
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    let repaired;
    try {
      repaired = await verify('--repair');
    } finally {
      changing = false;
      await changes;
    }
    expect(repaired.code, repaired.stdout + repaired.stderr).toBe(0);
    // items changed meanwhile may have been written by the indexer before the repair reached them
    expect(repaired.stdout).toMatch(
      /Reparados: [2-5]; verificados de novo: [2-5] iguais, 0 ainda diferentes/,
    );
    await settled();
    expect(await indexMismatches(db(), admin, alias)).toEqual([]);
    // the document that carried a version above the database's is replaced by the newest row
    const doc = await admin.get({ index: alias, id: '1003' });
    expect(doc.body._version).toBe(await rowVersion(1003));
    expect(doc.body._version).toBeGreaterThan(v1003 + 1_000_000);
    expect((await verify()).code).toBe(0);
  });

  it('changes the indexer delivers while differences are being confirmed are never taken for drift', async () => {
    // The race: a document read a moment before the indexer writes its newer version, the row read
    // after, already newer, and the change settled by then. Changes come in bursts at uneven pauses
    // so that deliveries land inside the checks.
    await settled();
    const ids = Array.from({ length: 20 }, (_, i) => 2_000 + i);
    let changing = true;
    const changes = (async () => {
      for (let n = 0; changing; n++) {
        await sql`update stock_items set quantity = ${n} where id = any(${ids.map(String)}::bigint[])`.execute(
          db(),
        );
        await new Promise((resolve) => setTimeout(resolve, (n % 8) * 5));
      }
    })();
    const taken: Difference[] = [];
    let inFlight = 0;
    try {
      for (let check = 0; check < 400; check++) {
        const confirmed = await confirmDifferences(db(), admin, alias, ids);
        taken.push(...confirmed.differences);
        inFlight += confirmed.inFlight;
      }
    } finally {
      changing = false;
      await changes;
    }
    expect(taken).toEqual([]);
    // the changes did race the checks: some differences were seen, each one in flight
    expect(inFlight).toBeGreaterThan(0);
  }, 180_000);

  it('a document the cluster refuses for its content is reported with its reason, and written once the cause is fixed', async () => {
    await settled();
    // The live index made to refuse a variant that is not a number (a sub-field of type long).
    const variant = stockIndexDefinition().mappings!.properties!.vehicle_variant as {
      fields: Record<string, unknown>;
    };
    const withNumber = (numberField: Record<string, unknown>) =>
      admin.indices.putMapping({
        index: alias,
        body: {
          properties: { vehicle_variant: { ...variant, fields: { ...variant.fields, num: numberField } } },
        },
      });
    await withNumber({ type: 'long' });
    await sql`update stock_items set vehicle_variant = 'ABC' where id = 1010`.execute(db());
    await sql`update stock_items set vehicle_variant = '2019' where id = 1011`.execute(db());

    // The two changes may be delivered in different batches: wait for both, the refused one owed.
    await waitUntil(async () => {
      const status = await ledgerStatus(db());
      return status.rejected === 1 && status.owed === 1;
    }, 'the refusal to be recorded and the other change delivered');
    const { rows } = await listRejected(db(), 10);
    expect(rows).toEqual([expect.objectContaining({ itemId: 1010, version: await rowVersion(1010) })]);
    expect(rows[0]!.reason).toMatch(/mapper_parsing_exception/);
    expect(indexer.metrics.totals.rejected).toBeGreaterThanOrEqual(1);

    const reported = await verify();
    expect(reported.code).toBe(1);
    expect(line(reported.stdout, 'recusados pelo cluster')).toMatch(/\s1$/);
    expect(reported.stdout).toMatch(/item 1010 \(versão \d+\): mapper_parsing_exception/);

    // The cause fixed in the cluster: the same version is written by the indexer's next try.
    await withNumber({ type: 'long', ignore_malformed: true });
    await settled();
    expect(await indexMismatches(db(), admin, alias)).toEqual([]);
    expect((await verify()).code).toBe(0);
  });
});
