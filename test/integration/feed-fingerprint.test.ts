import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { applyLines, finishApply, inApplyTransaction, type FeedToApply } from '../../src/stock/feed-apply.js';
import { stockAfterFeed } from '../../src/stock/feed-repeat.js';
import { createFeed } from '../../src/stock/feed-store.js';
import type { StockLine } from '../../src/stock/stock-line.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

/**
 * The stock a full feed leaves (feed-repeat.ts's stockAfterFeed): the seller's fingerprint when
 * the stock is exactly what the feed defines — what lets the same file sent again be answered
 * without reading it — and null when a write of another kind landed in between, which must make
 * the next identical feed be read and applied. Each case writes after the feed's writes and
 * removals, as a concurrent write committed at that moment would, in the apply's own transaction,
 * which is then rolled back.
 */
describe("a full feed's resulting stock fingerprint", () => {
  let database: TestDatabase;
  const db = (): Database => database.handle.db;
  const SELLER = '300';

  const line = (sku: string, price: string): StockLine => ({
    sku,
    remove: false,
    reference: `REF-${sku}`,
    title: `Peça ${sku}`,
    description: '',
    condition: 'novo',
    price,
    currency: 'EUR',
    quantity: 1,
    isOem: false,
    isAftermarket: true,
    vehicleMake: null,
    vehicleModel: null,
    vehicleVariant: null,
    partId: null,
    country: 'PT',
    references: [],
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    await db()
      .insertInto('vendors')
      .values({ id: SELLER, name: 'Peças Impressão', country_code: 'PT' })
      .execute();
    // the seller's stock before the feed: as the feed names them, A-3 not named
    for (const [sku, price] of [
      ['A-1', '10.00'],
      ['A-2', '20.00'],
      ['A-3', '30.00'],
    ] as const) {
      const l = line(sku, price);
      await db()
        .insertInto('stock_items')
        .values({
          vendor_id: SELLER,
          sku,
          reference: l.reference,
          title: l.title,
          description: l.description,
          condition: l.condition,
          price,
          currency: l.currency,
          quantity: l.quantity,
          is_oem: l.isOem,
          is_aftermarket: l.isAftermarket,
          location_country_code: l.country,
        })
        .execute();
    }
  });
  afterAll(() => database?.drop());

  class RolledBack extends Error {}

  /**
   * A full feed keeping A-1, changing A-2's price, creating A-4 and (not named) removing A-3;
   * `between` writes once the feed's writes and removals are done. Returns what stockAfterFeed
   * then finds and the seller's stock_fingerprint.
   */
  async function fingerprintsOf(
    between: (trx: Database, feedId: string) => Promise<unknown>,
  ): Promise<{ recorded: string | null; actual: string }> {
    const feedId = await createFeed(db(), {
      vendorId: SELLER,
      accountId: null,
      mode: 'full',
      format: 'csv',
      gzipped: false,
      dryRun: false,
      force: true,
    });
    const feed: FeedToApply = {
      id: feedId,
      vendorId: SELLER,
      mode: 'full',
      dryRun: false,
      force: true,
      country: 'PT',
    };
    let result: { recorded: string | null; actual: string } | undefined;
    await inApplyTransaction(db(), async (trx) => {
      const batch = [line('A-1', '10.00'), line('A-2', '25.00'), line('A-4', '40.00')];
      await applyLines(trx, feed, { batch: batch.map((value, i) => ({ line: i + 2, value })) });
      let recordedByFinish: string | null = null;
      await finishApply(trx, feed, async (_trx, _counts, _warnings, stockAfter) => {
        recordedByFinish = stockAfter;
      });
      const fingerprint = async () =>
        (await sql<{ f: string }>`select stock_fingerprint(${SELLER}) as f`.execute(trx)).rows[0]!.f;
      // what the apply itself recorded, nothing else having written
      expect(recordedByFinish).toBe(await fingerprint());
      await between(trx, feedId);
      result = { recorded: await stockAfterFeed(trx, feed), actual: await fingerprint() };
      throw new RolledBack();
    }).catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
    return result!;
  }

  const nothing = async () => undefined;

  it('is the seller’s fingerprint when nothing else wrote', async () => {
    const { recorded, actual } = await fingerprintsOf(nothing);
    expect(recorded).toBe(actual);
    // three items in the seller's country
    expect(recorded).toMatch(/^3:-?\d+:PT$/);
  });

  it('is null when an item the feed left alone changed or went meanwhile', async () => {
    const changed = await fingerprintsOf((trx) =>
      sql`update stock_items set quantity = 7 where vendor_id = ${SELLER} and sku = 'A-1'`.execute(trx),
    );
    expect(changed.recorded).toBeNull();
    const gone = await fingerprintsOf((trx) =>
      sql`delete from stock_items where vendor_id = ${SELLER} and sku = 'A-1'`.execute(trx),
    );
    expect(gone.recorded).toBeNull();
  });

  it('is null when an item the feed wrote is gone', async () => {
    for (const sku of ['A-2', 'A-4']) {
      const { recorded } = await fingerprintsOf((trx) =>
        sql`delete from stock_items where vendor_id = ${SELLER} and sku = ${sku}`.execute(trx),
      );
      expect(recorded, sku).toBeNull();
    }
  });

  it('is null when an item the feed does not name appeared, unless its line was rejected', async () => {
    const added = (trx: Database) =>
      sql`insert into stock_items (vendor_id, sku, reference, title, condition, price, quantity,
                                   location_country_code)
          values (${SELLER}, 'A-9', 'REF-A-9', 'Peça A-9', 'novo', 9, 1, 'PT')`.execute(trx);
    expect((await fingerprintsOf(added)).recorded).toBeNull();

    const { recorded, actual } = await fingerprintsOf(async (trx, feedId) => {
      await added(trx);
      await sql`insert into stock_feed_errors (feed_id, line, sku, field, message)
                values (${feedId}, 5, 'A-9', 'preco', 'O preço não pode ser negativo: -1.')`.execute(trx);
    });
    expect(recorded).toBe(actual);
    expect(recorded).toMatch(/^4:/);
  });

  it('is null when the seller’s country changed since the lines took it', async () => {
    const { recorded } = await fingerprintsOf((trx) =>
      sql`update vendors set country_code = 'ES' where id = ${SELLER}`.execute(trx),
    );
    expect(recorded).toBeNull();
  });
});
