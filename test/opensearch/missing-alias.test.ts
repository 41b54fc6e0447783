import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createTestAccount, creditsOf } from '../helpers/accounts-fixture.js';
import { expectLedgerMatchesBalance } from '../helpers/ledger-check.js';
import { clusterClient, TEST_OPENSEARCH_URL, uniqueAlias } from '../helpers/opensearch.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * An API whose OPENSEARCH_INDEX names no alias on the live cluster (no index built yet, or an
 * operator removed it): the cluster answers, but there is nothing to search. Not the caller's
 * fault: 503 SERVICE_UNAVAILABLE, nothing charged, and the process reports itself not ready.
 */
describe.skipIf(!TEST_OPENSEARCH_URL)('OpenSearch alias missing on the live cluster', () => {
  let app: TestApp;
  const alias = uniqueAlias('missing');

  beforeAll(async () => {
    app = await startTestApp({
      env: { SEARCH_ENGINE: 'opensearch', OPENSEARCH_URL: TEST_OPENSEARCH_URL!, OPENSEARCH_INDEX: alias },
    });
    await loadStockFixture(app.services.db);
  });
  afterAll(() => app?.close());

  it('searches, statistics and stock-derived lists answer 503, nothing is charged, /ready is 503', async () => {
    const client = clusterClient();
    try {
      expect((await client.indices.existsAlias({ name: alias })).body).toBe(false);
    } finally {
      await client.close();
    }
    const account = await createTestAccount(app.services.db, new ManualClock(), { credits: 10 });
    const api = app.api.withApiKey(account.apiKey);
    for (const [path, body] of [
      ['/data/search', { reference: '1K0 615 301 AA' }],
      ['/data/search', { text: 'disco' }],
      ['/data/search/stats', { vehicle_make: 'volkswagen' }],
    ] as const) {
      const response = await api.post<{ code: string }>(path, body);
      expect(response.status, path).toBe(503);
      expect(response.body.code).toBe('SERVICE_UNAVAILABLE');
    }
    for (const path of [
      '/data/catalog/brands',
      '/data/catalog/models/volkswagen',
      '/data/catalog/variants/golf',
    ]) {
      const response = await app.api.get<{ code: string }>(path);
      expect(response.status, path).toBe(503);
      expect(response.body.code).toBe('SERVICE_UNAVAILABLE');
    }
    expect((await app.api.get('/ready')).status).toBe(503);
    await expectLedgerMatchesBalance(app.services.db, account.accountId, { spent: 0 });
    expect(await creditsOf(app.services.db, account.accountId)).toBe(10);
  });
});
