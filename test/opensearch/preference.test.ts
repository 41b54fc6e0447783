import type { Client } from '@opensearch-project/opensearch';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClusterClient, writeBatch } from '../../indexer/cluster.js';
import { aliasTargets } from '../../indexer/index-admin.js';
import { rebuildIndex } from '../../indexer/rebuild.js';
import type { StockQuery } from '../../src/search/engine.js';
import { OpenSearchEngine } from '../../src/search/opensearch/opensearch-engine.js';
import { searchBody } from '../../src/search/opensearch/queries.js';
import { readStockDocuments } from '../../src/search/stock-documents.js';
import { startDedicatedCluster, type DedicatedCluster } from '../../scripts/opensearch/dedicated-cluster.js';
import { dropAlias, TEST_OPENSEARCH_URL } from '../helpers/opensearch.js';
import { loadStockFixture, type FixtureItem } from '../helpers/stock-fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { TEST_DATABASE_URL } from '../helpers/test-env.js';
import { waitFor } from '../helpers/wait-until.js';
import { stockQuery } from '../../src/search/stock-query.js';

const ALIAS = 'stock_pref';
/** Matches items 1–200 only; ranked by how often each of its first two words occurs. */
const QUERY: StockQuery = stockQuery({ text: 'travao pastilha disco' });
const MATCHING = 200;
const PER_PAGE = 10;

/**
 * 1–200 match the query, with every mix of "travao" and "pastilha" counts; 201–500 hold
 * "pastilha" without "travao", 501–600 "travao" without "pastilha": the two words' document
 * frequencies, and so their weights in the score, depend on how many deleted copies of 201–500 a
 * shard copy still holds.
 */
function title(id: number): string {
  const words = (word: string, n: number) => Array<string>(n).fill(word);
  if (id <= MATCHING)
    return [
      ...words('travao', 1 + (id % 4)),
      ...words('pastilha', 1 + ((id * 7) % 5)),
      'disco',
      ...words('peca', id % 3),
    ].join(' ');
  return id <= 500 ? 'pastilha peca' : 'travao peca';
}

const ITEMS: FixtureItem[] = Array.from({ length: 600 }, (_, i) => ({
  id: i + 1,
  vendorId: 1,
  reference: `PREF-${i + 1}`,
  title: title(i + 1),
  condition: 'novo',
  price: 10,
  country: 'PT',
}));

interface Paging {
  total: number;
  ids: number[];
}

/** Every page of the query in turn, as a client paging through the results would ask for them. */
async function pageThrough(page: (n: number) => Promise<Paging>): Promise<Paging> {
  const ids: number[] = [];
  for (let n = 1; ; n++) {
    const answer = await page(n);
    ids.push(...answer.ids);
    if (n * PER_PAGE >= answer.total) return { total: answer.total, ids };
  }
}

/**
 * A two-node cluster, the index with one shard and one replica, and the two copies of the shard
 * made to score differently, as they do in production once updates leave deleted documents that
 * one copy has merged away and the other has not: BM25 counts deleted documents until a merge
 * removes them. Pages of a text search are ordered by score; if they are read from different
 * copies they overlap and skip. The engine pins one copy per search (a `preference`).
 */
describe.skipIf(!TEST_OPENSEARCH_URL || !TEST_DATABASE_URL)('text search pages on a two-node cluster', () => {
  let cluster: DedicatedCluster | null = null;
  let client: Client;
  let database: TestDatabase;
  let engine: OpenSearchEngine;

  beforeAll(async () => {
    database = await createTestDatabase();
    await loadStockFixture(database.handle.db, ITEMS);
    cluster = await startDedicatedCluster(9240, 2);
    client = createClusterClient(cluster.url);
    // Without adaptive replica selection the copies take requests in turn, as a loaded cluster
    // spreads them; otherwise one idle node would answer nearly everything.
    await client.cluster.putSettings({
      body: { transient: { 'cluster.routing.use_adaptive_replica_selection': false } },
    });
    await rebuildIndex(database.handle.db, client, ALIAS);
    await client.cluster.health({ index: ALIAS, wait_for_status: 'green', timeout: '60s' });

    // Items 201–500 change five times: each change leaves a deleted document in both copies.
    for (let round = 0; round < 5; round++) {
      await sql`update stock_items set quantity = quantity + 1 where id between 201 and 500`.execute(
        database.handle.db,
      );
      const ids = Array.from({ length: 300 }, (_, i) => 201 + i);
      const documents = await readStockDocuments(database.handle.db, ids);
      const outcome = await writeBatch(client, ALIAS, { documents, deletions: [] }, true);
      expect(outcome.acknowledged.length).toBe(300);
    }
    await client.indices.refresh({ index: ALIAS });
    // A merge keeps deleted documents the shard's retention leases still cover; they move past
    // the last operation when the cluster next syncs them (every 30 s).
    const index = (await aliasTargets(client, ALIAS))[0]!;
    for (;;) {
      const copies = await shardCopies(index);
      if (copies.every((c) => c.leases.every((seq) => seq > c.maxSeqNo))) break;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    // The primary alone merges its deleted documents away; the replica keeps them. A merge that
    // ran while a lease still covered the deleted documents keeps them: merged again until the
    // primary holds none (searches read what the last refresh opened, so each is followed by one).
    await waitFor(
      'the primary merged without deleted documents, the replica still holding them',
      async () => {
        await client.indices.forcemerge({ index, max_num_segments: 1, primary_only: true });
        await client.indices.refresh({ index });
        return shardCopies(index);
      },
      (copies) => copies.find((c) => c.primary)!.deleted === 0 && copies.find((c) => !c.primary)!.deleted > 0,
      120_000,
    );
    engine = OpenSearchEngine.connect(cluster.url, { index: ALIAS });
  }, 300_000);

  afterAll(async () => {
    await engine?.close();
    if (client) await dropAlias(client, ALIAS).catch(() => undefined);
    await client?.close();
    await cluster?.stop();
    await database?.drop();
  });

  async function shardCopies(index: string) {
    const stats = await client.indices.stats({ index, level: 'shards' });
    const shards = (
      stats.body.indices as Record<
        string,
        {
          shards: Record<
            string,
            {
              routing: { primary: boolean; node: string };
              docs: { deleted: number };
              seq_no: { max_seq_no: number };
              retention_leases: { leases: { retaining_seq_no: number }[] };
            }[]
          >;
        }
      >
    )[index]!.shards['0']!;
    return shards.map((s) => ({
      primary: s.routing.primary,
      node: s.routing.node,
      deleted: s.docs.deleted,
      maxSeqNo: s.seq_no.max_seq_no,
      leases: s.retention_leases.leases.map((l) => l.retaining_seq_no),
    }));
  }

  it('the two copies of the shard hold different deleted documents, and rank the query differently', async () => {
    const index = (await aliasTargets(client, ALIAS))[0]!;
    const copies = await shardCopies(index);
    expect(copies.find((c) => c.primary)!.deleted).toBe(0);
    expect(copies.find((c) => !c.primary)!.deleted).toBeGreaterThan(0);
    const order = async (preference: string) =>
      (
        await client.search({
          index: ALIAS,
          body: searchBody(QUERY, { page: 1, perPage: MATCHING }, { withStats: false }),
          preference,
        })
      ).body.hits.hits.map((h) => h._id);
    // each copy asked on its own node (the deprecated _primary/_replica preferences are not
    // reliable once a copy has been promoted or relocated)
    const onNodeOf = (primary: boolean) => `_only_nodes:${copies.find((c) => c.primary === primary)!.node}`;
    expect(await order(onNodeOf(true))).not.toEqual(await order(onNodeOf(false)));
  });

  it('without a preference, pages read from alternating copies overlap and skip', async () => {
    const plain = (n: number) =>
      client
        .search({
          index: ALIAS,
          body: searchBody(QUERY, { page: n, perPage: PER_PAGE }, { withStats: false }),
        })
        .then((r) => ({
          total: (r.body.hits.total as { value: number }).value,
          ids: r.body.hits.hits.map((h) => Number(h._id)),
        }));
    const paged = await pageThrough(plain);
    expect(paged.total).toBe(MATCHING);
    expect(paged.ids).toHaveLength(MATCHING);
    expect(new Set(paged.ids).size).toBeLessThan(MATCHING);
  });

  it('through the engine, the pages of a search never overlap and cover the result set exactly, however it is spelled', async () => {
    const spellings: StockQuery[] = [
      QUERY,
      stockQuery({ text: 'Travão  PASTILHA disco' }),
      stockQuery({ text: 'TRAVAO pastilha Disco' }),
    ];
    for (let run = 0; run < 3; run++) {
      const paged = await pageThrough(async (n) => {
        // each page asked in another spelling of the same search, as clients do
        const result = await engine.search(spellings[(n + run) % spellings.length]!, {
          page: n,
          perPage: PER_PAGE,
        });
        return { total: result.total, ids: result.items.map((i) => i.id) };
      });
      expect(paged.total).toBe(MATCHING);
      expect(paged.ids).toHaveLength(MATCHING);
      expect(new Set(paged.ids).size).toBe(MATCHING);
    }
  });
});
