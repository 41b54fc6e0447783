import type { Client } from '@opensearch-project/opensearch';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClusterClient } from '../../indexer/cluster.js';
import { aliasTargets, stockIndexDefinition, versionedIndices } from '../../indexer/index-admin.js';
import { rebuildIndex } from '../../indexer/rebuild.js';
import { REBUILD_RETRY_FIRST_MS, RebuildRequests } from '../../indexer/rebuild-requests.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { indexedVersions, stockVersions } from '../helpers/index-contents.js';
import { clusterClient, dropAlias, TEST_OPENSEARCH_URL, uniqueAlias } from '../helpers/opensearch.js';
import { insertGeneratedItems, loadStockFixture } from '../helpers/stock-fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { TEST_DATABASE_URL } from '../helpers/test-env.js';

/** A bulk request the cluster fails (a 500 is not retried by the client). */
const FAILED_BULK = {
  status: 500,
  body: { error: { type: 'exception', reason: 'injected by the test' }, status: 500 },
};

/**
 * A rebuild that fails half-way, on the live cluster (its bulk requests pass through a fault proxy,
 * which fails one): it removes the index it was building, the alias keeps pointing at the old one,
 * and the indexer's rebuild requests retry after a delay that doubles, never at once. Indices left
 * by a rebuild that died are removed by the next one.
 */
describe.skipIf(!TEST_OPENSEARCH_URL || !TEST_DATABASE_URL)('a rebuild that fails half-way', () => {
  let database: TestDatabase;
  let admin: Client;
  let proxy: FaultProxy;
  let throughProxy: Client;
  const alias = uniqueAlias('failing');
  const db = () => database.handle.db;

  beforeAll(async () => {
    database = await createTestDatabase();
    await loadStockFixture(db());
    // 2,033 items: two bulk requests (2,000 and 33)
    await insertGeneratedItems(db(), 10_000, 2_000);
    admin = clusterClient();
    proxy = await FaultProxy.start(TEST_OPENSEARCH_URL!);
    throughProxy = createClusterClient(proxy.url);
    await rebuildIndex(db(), admin, alias);
  });
  afterAll(async () => {
    await throughProxy?.close();
    await proxy?.close();
    if (admin) await dropAlias(admin, alias);
    await admin?.close();
    await database?.drop();
  });

  it('removes its index, leaves the alias alone, and is retried after 5 s, then 10 s, never at once', async () => {
    const logged: { msg: string; retryInMs?: number }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line)) });
    let now = 1_000_000;
    const requests = new RebuildRequests(db(), throughProxy, alias, logger, { now: () => now });
    const live = `${alias}_v1`;
    await requests.request();

    // the second of the two bulk requests fails: the first half is in the new index
    proxy.inject({ method: 'POST', path: /^\/_bulk$/, skip: 1, times: 1, fault: FAILED_BULK });
    expect(await requests.check()).toBeNull();
    expect(proxy.received('PUT', new RegExp(`^/${alias}_v2$`))).toHaveLength(1);
    expect(proxy.received('POST', /^\/_bulk$/)).toHaveLength(2);
    expect(await versionedIndices(admin, alias)).toEqual([live]);
    expect(await aliasTargets(admin, alias)).toEqual([live]);
    expect(logged.filter((l) => l.msg.startsWith('rebuild failed')).map((l) => l.retryInMs)).toEqual([
      REBUILD_RETRY_FIRST_MS,
    ]);
    const registered = await sql<{ n: string }>`select count(*) as n from search_rebuilds`.execute(db());
    expect(Number(registered.rows[0]!.n)).toBe(0);

    // asked again at once, and just before the delay is over: nothing is tried
    const sent = proxy.requests.length;
    expect(await requests.check()).toBeNull();
    now += REBUILD_RETRY_FIRST_MS - 1;
    expect(await requests.check()).toBeNull();
    expect(proxy.requests.length).toBe(sent);
    expect(await versionedIndices(admin, alias)).toEqual([live]);

    // after it: tried again, fails again (the first bulk this time); the next delay is twice as long
    proxy.inject({ method: 'POST', path: /^\/_bulk$/, times: 1, fault: FAILED_BULK });
    now += 1;
    expect(await requests.check()).toBeNull();
    expect(await versionedIndices(admin, alias)).toEqual([live]);
    expect(logged.filter((l) => l.msg.startsWith('rebuild failed')).map((l) => l.retryInMs)).toEqual([
      REBUILD_RETRY_FIRST_MS,
      2 * REBUILD_RETRY_FIRST_MS,
    ]);
    now += 2 * REBUILD_RETRY_FIRST_MS - 1;
    const again = proxy.requests.length;
    expect(await requests.check()).toBeNull();
    expect(proxy.requests.length).toBe(again);

    // once the cluster takes the bulks, the rebuild goes through and the request is done
    now += 1;
    const rebuilt = await requests.check();
    expect(rebuilt).toEqual({ index: `${alias}_v2`, documents: 2_033, removed: [live] });
    expect(await aliasTargets(admin, alias)).toEqual([`${alias}_v2`]);
    expect(await versionedIndices(admin, alias)).toEqual([`${alias}_v2`]);
    expect(await indexedVersions(admin, alias)).toEqual(await stockVersions(db()));
    expect(await requests.check()).toBeNull();
  });

  it('the next rebuild removes indices a dead rebuild left, not one a rebuild in progress is building', async () => {
    const live = (await aliasTargets(admin, alias))[0]!;
    const abandoned = `${alias}_v7`;
    const building = `${alias}_v8`;
    for (const index of [abandoned, building])
      await admin.indices.create({ index, body: stockIndexDefinition() });
    await sql`insert into search_rebuilds (index_name, change_mark) values (${building}, 0)`.execute(db());
    try {
      const result = await rebuildIndex(db(), admin, alias);
      expect(result).toEqual({ index: `${alias}_v9`, documents: 2_033, removed: [live] });
      expect((await versionedIndices(admin, alias)).sort()).toEqual([building, `${alias}_v9`]);
    } finally {
      await sql`delete from search_rebuilds`.execute(db());
    }
  });
});
