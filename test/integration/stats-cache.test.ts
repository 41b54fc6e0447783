import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createTestAccount, type TestAccount } from '../helpers/accounts-fixture.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

interface SearchBody {
  total: number;
  credits_spent: number;
  results: { id: number }[];
  stats: { total_results: number };
}

let app: TestApp;
let account: TestAccount;

beforeAll(async () => {
  const clock = new ManualClock();
  app = await startTestApp({ clock, env: { STATS_CACHE_SECONDS: '60' } });
  await loadStockFixture(app.services.db);
  account = await createTestAccount(app.services.db, clock);
});
afterAll(() => app.close());

describe('statistics cache of the Postgres engine', () => {
  it('reuses a query’s statistics, written any way, while they agree with the page', async () => {
    const api = app.api.withApiKey(account.apiKey);
    const first = await api.post<SearchBody>('/data/search', { reference: '1K0 615 301 AA', per_page: 100 });
    expect(first.body.total).toBe(4);
    // A new matching item: the page shows it at once, so the cached total (4) contradicts the page
    // (5 rows) and the statistics are recomputed.
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
    const second = await api.post<SearchBody>('/data/search', {
      referencia: '1k0-615-301-aa',
      per_page: 100,
    });
    expect(second.body.results).toHaveLength(5);
    expect(second.body.total).toBe(5);
    expect(second.body.stats.total_results).toBe(5);
  });

  it('never charges for a search whose results are gone, even when cached figures said otherwise', async () => {
    const api = app.api.withApiKey(account.apiKey);
    const before = await api.post<SearchBody>('/data/search', { reference: 'W 712/95' });
    expect(before.body.total).toBe(1);
    await app.services.db.deleteFrom('stock_items').where('id', '=', '8').execute();
    const after = await api.post<SearchBody>('/data/search', { reference: 'W 712/95' });
    expect(after.body).toMatchObject({ total: 0, credits_spent: 0, results: [] });
  });
});
