import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { writeBatch } from '../../indexer/cluster.js';
import { OpenSearchEngine } from '../../src/search/opensearch/opensearch-engine.js';
import { COUNTED_APART_ABOVE } from '../../src/search/opensearch/queries.js';
import { readStockDocuments } from '../../src/search/stock-documents.js';
import { stockQuery } from '../../src/search/stock-query.js';
import { useIndexedDatabase } from '../helpers/indexed-database.js';
import { TEST_OPENSEARCH_URL } from '../helpers/opensearch.js';
import { CONTRACT_ITEMS, insertStockItems, loadStockFixture } from '../helpers/stock-fixture.js';

/**
 * A later page of a search is asked beside its query's kept statistics: they are sent with it
 * while its exact total agrees with them, and computed again once it does not. Both ways of
 * asking it: one sorted, counted search (a small result set), or an uncounted page with its total
 * counted apart in the same round trip (a result set of more than COUNTED_APART_ABOVE items; the
 * fixture's 25 Passats take that way with the bound lowered to 0).
 */
describe.skipIf(!TEST_OPENSEARCH_URL).each([
  ['counted with the page', COUNTED_APART_ABOVE],
  ['counted apart', 0],
])('pages beside kept statistics, %s', (_, countedApartAbove) => {
  const indexed = useIndexedDatabase('kept', (db) => loadStockFixture(db, CONTRACT_ITEMS));
  const passats = stockQuery({ vehicleModel: 'Passat' });

  /** Writes items' rows, as they are now in the database, to the index and makes them searchable. */
  async function indexRows(ids: number[]): Promise<void> {
    const documents = await readStockDocuments(indexed.database.handle.db, ids);
    const outcome = await writeBatch(indexed.client, indexed.alias, { documents, deletions: [] }, true);
    expect(outcome.acknowledged).toHaveLength(ids.length);
    await indexed.client.indices.refresh({ index: indexed.alias });
  }

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
    await indexRows([dearest.id]);
    const last = await engine.search(passats, { page: 3, perPage: 10 });
    expect(last.total).toBe(25);
    expect(last.stats).toEqual(kept);
    expect(last.items.at(-1)).toMatchObject({ id: dearest.id, price: kept.priceMax! + 100 });

    // A new Passat: the total no longer agrees, so the figures are those of the stock as it is.
    await insertStockItems(db, [{ ...dearest, id: 9_001, price: 1 }]);
    await indexRows([9_001]);
    const again = await engine.search(passats, { page: 2, perPage: 10 });
    expect(again.total).toBe(26);
    expect(again.stats).toMatchObject({ totalResults: 26, priceMin: 1, priceMax: kept.priceMax! + 100 });
    expect(again.items.map((i) => i.id)).not.toContain(9_001); // the cheapest, on page 1
    expect((await engine.search(passats, { page: 1, perPage: 10 })).items[0]!.id).toBe(9_001);
  });
});
