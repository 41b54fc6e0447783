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
 * A page deep in a result set, beside its kept statistics, is read from the highest price the
 * query's pages reached before it: the items cheaper than it counted, the page among the others
 * (every page, with the offset lowered to 0). The prices reached are not the stock's: with items
 * moved under them, a page is still the one at its offset, read from a price whose cheaper items
 * still fit before it, or asked as any page once more items than its offset are cheaper.
 */
describe.skipIf(!TEST_OPENSEARCH_URL)('pages read from a price the result set reached', () => {
  const indexed = useIndexedDatabase('from-price', (db) => loadStockFixture(db, CONTRACT_ITEMS));
  const passats = stockQuery({ vehicleModel: 'Passat' });
  // 25 Passats: 15 at 30.00, 5 at 45.50, 5 at 60.00; the first page ends on the first at 45.50,
  // the second is read from that price with the 15 cheaper ones counted
  const perPage = 17;

  it('are the pages at their offsets, however the prices moved under those reached', async () => {
    const engine = new OpenSearchEngine(indexed.client, {
      index: indexed.alias,
      statsCacheSeconds: 60,
      fromPriceAtOffset: 0,
    });
    // asks every page as a first page is: sorted, counted, nothing kept
    const counted = new OpenSearchEngine(indexed.client, { index: indexed.alias });
    const samePages = async () => {
      for (const page of [1, 2]) {
        const [read, asked] = [
          await engine.search(passats, { page, perPage }),
          await counted.search(passats, { page, perPage }),
        ];
        expect(read.total).toBe(25);
        expect(read.items.map((i) => i.id)).toEqual(asked.items.map((i) => i.id));
      }
    };
    await samePages();

    // The dearest become the cheapest, one and then two more (the total agrees: the kept
    // statistics go on). One more item under 45.50 still fits before the second page (16 of 17);
    // three do not (18), and the page is asked as any other.
    const dearest = (await counted.search(passats, { page: 2, perPage })).items.slice(-3).map((i) => i.id);
    const db = indexed.database.handle.db;
    for (const moved of [dearest.slice(0, 1), dearest.slice(1)]) {
      await sql`update stock_items set price = 0.01 where id = any(${moved}::bigint[])`.execute(db);
      await indexRows(indexed, moved);
      await samePages();
    }
    const cheapest = (await engine.search(passats, { page: 1, perPage })).items.slice(0, 3);
    expect(cheapest.map((i) => i.id).sort()).toEqual([...dearest].sort());
  });
});
