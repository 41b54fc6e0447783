import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createTestAccount, type TestAccount } from '../helpers/accounts-fixture.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { DATABASE_KINDS } from '../helpers/test-env.js';
import type { BalanceAnswer, HistoryAnswer, PackagesAnswer, SearchAnswer } from '../../web/src/api-types.js';

describe.each(DATABASE_KINDS)('credits on %s', (databaseKind) => {
  let app: TestApp;
  let clock: ManualClock;
  let account: TestAccount;

  beforeAll(async () => {
    clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
    app = await startTestApp({ clock, databaseKind });
    await loadStockFixture(app.services.db);
    clock.set(new Date('2026-11-21T20:00:00Z'));
    account = await createTestAccount(app.services.db, clock);
    const key = app.api.withApiKey(account.apiKey);
    // yesterday: one charged search; today: charged, free (no results), free (token page), stats
    clock.set(new Date('2026-11-21T23:30:00Z'));
    await key.post('/data/search', { part_id: 3 });
    clock.set(new Date('2026-11-22T10:00:00Z'));
    const first = await key.post<SearchAnswer>('/data/search', { part_id: 7, per_page: 5 });
    await key.post('/data/search', { reference: 'NOPE' });
    await key.post('/data/search', {
      part_id: 7,
      per_page: 5,
      page: 2,
      search_token: first.body.search_token,
    });
    await key.post('/data/search/stats', { part_id: 7 });
  });
  afterAll(() => app?.close());

  describe('credits endpoints', () => {
    it('balance: credits, daily limit and what was spent today (UTC)', async () => {
      const res = await app.api.withBearer(account.bearer).get<BalanceAnswer>('/data/credits/balance');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, credits: 47, daily_credit_limit: null, spent_today: 2 });
    });

    it('balance, history need a Bearer token: an API key gets 401', async () => {
      for (const path of ['/data/credits/balance', '/data/credits/history']) {
        const res = await app.api.withApiKey(account.apiKey).get(path);
        expect(res.status).toBe(401);
        expect(res.body.code).toBe('BEARER_REQUIRED');
        expect((await app.api.get(path)).status).toBe(401);
      }
    });

    it('packages are public', async () => {
      const res = await app.api.get<PackagesAnswer>('/data/credits/packages');
      expect(res.status).toBe(200);
      expect(res.body.packages.length).toBeGreaterThan(0);
      expect(res.body.packages[0]).toMatchObject({ id: 'starter', credits: 500, price_eur: 19 });
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    });

    it('history lists every search, free ones too, newest first, and the signup', async () => {
      const res = await app.api.withBearer(account.bearer).get<HistoryAnswer>('/data/credits/history');
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(6);
      expect(res.body.results.map((r) => [r.kind, r.credits, r.balance_after])).toEqual([
        ['stats', -1, 47],
        ['search', 0, null],
        ['search', 0, null],
        ['search', -1, 48],
        ['search', -1, 49],
        ['signup', 50, 50],
      ]);
      expect(res.body.results[1]!.search).toMatchObject({ query_summary: 'part_id=7', page: 2, total: 25 });
      expect(res.body.results[5]!.search).toBeNull();
    });

    it('history filters by kind and date range and paginates', async () => {
      const bearer = app.api.withBearer(account.bearer);
      const stats = await bearer.get<HistoryAnswer>('/data/credits/history?kind=stats');
      expect(stats.body.results.map((r) => r.kind)).toEqual(['stats']);
      const today = await bearer.get<HistoryAnswer>(
        '/data/credits/history?from=2026-11-22T00:00:00Z&kind=search',
      );
      expect(today.body.total).toBe(3);
      const yesterday = await bearer.get<HistoryAnswer>(
        '/data/credits/history?from=2026-11-21T00:00:00Z&to=2026-11-22T00:00:00Z&kind=search',
      );
      expect(yesterday.body.total).toBe(1);
      const page = await bearer.get<HistoryAnswer>('/data/credits/history?per_page=4&page=2');
      expect(page.body.total_pages).toBe(2);
      expect(page.body.results).toHaveLength(2);
    });

    it('history rejects bad filters with 400', async () => {
      const bearer = app.api.withBearer(account.bearer);
      for (const q of [
        'kind=refund',
        'from=yesterday',
        'per_page=500',
        'from=2026-11-22T00:00:00Z&to=2026-11-21T00:00:00Z',
        'page=1e20',
        'per_page=100&page=92233720368547758',
      ]) {
        const res = await bearer.get(`/data/credits/history?${q}`);
        expect(res.status, q).toBe(400);
      }
    });
  });
});
