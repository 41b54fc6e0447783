import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createTestAccount, type TestAccount } from '../helpers/accounts-fixture.js';
import { ENGINES, startEngineApp, type EngineApp } from '../helpers/engine-app.js';
import { clusterClient, waitUntil } from '../helpers/opensearch.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import type { SearchAnswer } from '../../web/src/api-types.js';

/**
 * Both engines keep a query's statistics for STATS_CACHE_SECONDS; the kept figures must never
 * contradict the page they are sent with. On OpenSearch a stock change reaches searches through the
 * indexer: each test waits until the change is searchable before asking again.
 */
describe.each(ENGINES)('statistics cache of the %s engine', (engine) => {
  let app: EngineApp;
  let account: TestAccount;

  beforeAll(async () => {
    const clock = new ManualClock();
    app = await startEngineApp(engine, (db) => loadStockFixture(db), {
      clock,
      env: { STATS_CACHE_SECONDS: '60' },
    });
    account = await createTestAccount(app.services.db, clock);
  });
  afterAll(() => app?.close());

  /** Resolves once the engine's index shows item `id` present (or absent). */
  async function searchable(id: number, present: boolean): Promise<void> {
    if (app.engine === 'postgres') return;
    const client = clusterClient();
    try {
      await waitUntil(
        async () => {
          const found = await client.count({
            index: app.engineEnv.OPENSEARCH_INDEX!,
            body: { query: { ids: { values: [String(id)] } } },
          });
          return found.body.count === (present ? 1 : 0);
        },
        `item ${id} ${present ? 'indexed' : 'deleted'}`,
      );
    } finally {
      await client.close();
    }
  }

  it('reuses a query’s statistics, written any way, while they agree with the page', async () => {
    const api = app.api.withApiKey(account.apiKey);
    const first = await api.post<SearchAnswer>('/data/search', {
      reference: '1K0 615 301 AA',
      per_page: 100,
    });
    expect(first.body.total).toBe(4);
    // A new matching item: the page shows it, so the cached total (4) contradicts the page and the
    // statistics are computed again.
    await app.services.db
      .insertInto('stock_items')
      .values({
        id: 999,
        vendor_id: 1,
        reference: '1K0615301AA',
        title: 'Disco',
        condition: 'novo',
        price: 1,
        location_country_code: 'PT',
      })
      .execute();
    await searchable(999, true);
    const second = await api.post<SearchAnswer>('/data/search', {
      referencia: '1k0-615-301-aa',
      per_page: 100,
    });
    expect(second.body.results).toHaveLength(5);
    expect(second.body.total).toBe(5);
    expect(second.body.stats.total_results).toBe(5);
  });

  it('never charges for a search whose results are gone, even when cached figures said otherwise', async () => {
    const api = app.api.withApiKey(account.apiKey);
    const before = await api.post<SearchAnswer>('/data/search', { reference: 'W 712/95' });
    expect(before.body.total).toBe(1);
    await app.services.db.deleteFrom('stock_items').where('id', '=', '8').execute();
    await searchable(8, false);
    const after = await api.post<SearchAnswer>('/data/search', { reference: 'W 712/95' });
    expect(after.body).toMatchObject({ total: 0, credits_spent: 0, results: [] });
  });
});
