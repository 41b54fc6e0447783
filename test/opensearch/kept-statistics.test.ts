import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { writeBatch } from '../../indexer/cluster.js';
import { OpenSearchEngine } from '../../src/search/opensearch/opensearch-engine.js';
import { COUNTED_APART_ABOVE } from '../../src/search/opensearch/queries.js';
import { readStockDocuments } from '../../src/search/stock-documents.js';
import { stockQuery } from '../../src/search/stock-query.js';
import { useIndexedDatabase, type IndexedDatabase } from '../helpers/indexed-database.js';
import { TEST_OPENSEARCH_URL } from '../helpers/opensearch.js';
import { CONTRACT_ITEMS, insertStockItems, loadStockFixture } from '../helpers/stock-fixture.js';

/**
 * A later page of a search is asked beside its query's kept statistics: they are sent with it
 * while its exact total agrees with them, and computed again once it does not. Both ways of
 * asking it: one sorted, counted search (a small result set), or an uncounted page with its total
 * counted apart in the same round trip (a result set of more than COUNTED_APART_ABOVE items; the
 * fixture's 25 Passats take that way with the bound lowered to 0).
 */
/** Writes items' rows, as they are now in the database, to the index and makes them searchable. */
async function indexRows(indexed: IndexedDatabase, ids: number[]): Promise<void> {
  const documents = await readStockDocuments(indexed.database.handle.db, ids);
  const outcome = await writeBatch(indexed.client, indexed.alias, { documents, deletions: [] }, true);
  expect(outcome.acknowledged).toHaveLength(ids.length);
  await indexed.client.indices.refresh({ index: indexed.alias });
}

describe.skipIf(!TEST_OPENSEARCH_URL).each([
  ['counted with the page', COUNTED_APART_ABOVE],
  ['counted apart', 0],
])('pages beside kept statistics, %s', (_, countedApartAbove) => {
  const indexed = useIndexedDatabase('kept', (db) => loadStockFixture(db, CONTRACT_ITEMS));
  const passats = stockQuery({ vehicleModel: 'Passat' });

  it('keeps them while the total agrees, and computes them again when the stock under it changed', async () => {
    const engine = new OpenSearchEngine(indexed.client, {
      index: indexed.alias,
      statsCacheSeconds: 60,
      countedApartAbove,
    });
    const first = await engine.search(passats, { page: 1, perPage: 10 });
    expect(first.total).toBe(25);
    const kept = first.stats;

    // A price changes, not the count: the kept figures still go with the pages (the dearest
    // item's new price is on the last page, the maximum is the kept one).
    const dearest = CONTRACT_ITEMS.filter((i) => i.model === 'Passat B8').sort(
      (a, b) => b.price - a.price || b.id - a.id,
    )[0]!;
    const db = indexed.database.handle.db;
    await sql`update stock_items set price = ${kept.priceMax! + 100} where id = ${dearest.id}`.execute(db);
    await indexRows(indexed, [dearest.id]);
    const last = await engine.search(passats, { page: 3, perPage: 10 });
    expect(last.total).toBe(25);
    expect(last.stats).toEqual(kept);
    expect(last.items.at(-1)).toMatchObject({ id: dearest.id, price: kept.priceMax! + 100 });

    // A new Passat: the total no longer agrees, so the figures are those of the stock as it is.
    await insertStockItems(db, [{ ...dearest, id: 9_001, price: 1 }]);
    await indexRows(indexed, [9_001]);
    const again = await engine.search(passats, { page: 2, perPage: 10 });
    expect(again.total).toBe(26);
    expect(again.stats).toMatchObject({ totalResults: 26, priceMin: 1, priceMax: kept.priceMax! + 100 });
    expect(again.items.map((i) => i.id)).not.toContain(9_001); // the cheapest, on page 1
    expect((await engine.search(passats, { page: 1, perPage: 10 })).items[0]!.id).toBe(9_001);
  });
});

/**
 * A page deep in a result set, beside its kept statistics, is read after the highest hit the
 * query's pages reached before it, with the items up to that hit counted in the same msearch (every
 * page, with the offset lowered to 0). The hits are not the stock: with items moved across one, a
 * page is still the one at its offset, asked again from the offset the count leaves, or as any page
 * once more items than its offset come before the hit.
 */
describe.skipIf(!TEST_OPENSEARCH_URL)('pages read after a hit the result set reached', () => {
  const indexed = useIndexedDatabase('after-hit', (db) => loadStockFixture(db, CONTRACT_ITEMS));
  const passats = stockQuery({ vehicleModel: 'Passat' });
  // 25 Passats: 15 at 30.00, 5 at 45.50, 5 at 60.00; the second page of 17 is read after the first
  // page's last hit (the first at 45.50), with the 17 items up to it counted
  const perPage = 17;

  it('are the pages at their offsets, however the items moved across the hits reached', async () => {
    const engine = new OpenSearchEngine(indexed.client, {
      index: indexed.alias,
      statsCacheSeconds: 60,
      fromHitAtOffset: 0,
    });
    // asks every page as a first page is: sorted, counted, nothing kept
    const counted = new OpenSearchEngine(indexed.client, { index: indexed.alias });
    const samePages = async () => {
      for (const page of [1, 2]) {
        const read = await engine.search(passats, { page, perPage });
        expect(read.total).toBe(25);
        const asked = await counted.search(passats, { page, perPage });
        expect(read.items.map((i) => i.id)).toEqual(asked.items.map((i) => i.id));
      }
    };
    await samePages();

    // The total agrees after each move (the kept statistics go on). The cheapest becomes the
    // dearest: 16 items up to the hit, the page is asked again from 1. Then the three dearest
    // become the cheapest: 19, more than the page's offset, and it is asked as any other.
    const db = indexed.database.handle.db;
    const move = async (ids: number[], price: number) => {
      await sql`update stock_items set price = ${price} where id = any(${ids}::bigint[])`.execute(db);
      await indexRows(indexed, ids);
    };
    const cheapest = (await counted.search(passats, { page: 1, perPage })).items[0]!.id;
    await move([cheapest], 99);
    await samePages();
    const dearest = (await counted.search(passats, { page: 2, perPage })).items.slice(-3).map((i) => i.id);
    expect(dearest).toContain(cheapest);
    await move(dearest, 0.01);
    await samePages();
    const first = (await engine.search(passats, { page: 1, perPage })).items.slice(0, 3);
    expect(first.map((i) => i.id).sort()).toEqual([...dearest].sort());
  });
});
