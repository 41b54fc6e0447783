import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createTestAccount, type TestAccount } from '../helpers/accounts-fixture.js';
import { startApiProcess } from '../helpers/api-process.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { seriesValue } from '../helpers/prometheus-text.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase } from '../helpers/test-database.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../helpers/test-env.js';

const TOKEN = 'metrics-token-for-tests-0123';

describe('Prometheus metrics at /metrics with METRICS_TOKEN', () => {
  let app: TestApp;
  let account: TestAccount;
  let text: string;

  const scrape = async () => {
    const res = await fetch(`${app.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    return res.text();
  };

  beforeAll(async () => {
    const clock = new ManualClock(new Date('2026-11-22T12:00:00Z'));
    app = await startTestApp({
      clock,
      redis: Boolean(TEST_REDIS_URL),
      env: { METRICS_TOKEN: TOKEN, CREDENTIAL_FAILURES_PER_IP_PER_MINUTE: '2' },
    });
    await loadStockFixture(app.services.db);
    account = await createTestAccount(app.services.db, clock);
    await app.services.db
      .updateTable('api_keys')
      .set({ rate_limit_per_minute: 4 })
      .where('id', '=', account.apiKeyId)
      .execute();

    const api = app.api.withApiKey(account.apiKey);
    expect((await api.post('/data/search', { part_id: 3 })).body.credits_spent).toBe(1);
    expect((await api.post('/data/search', { part_id: 7 })).body.credits_spent).toBe(1);
    expect((await api.post('/data/search/stats', { part_id: 3 })).body.credits_spent).toBe(1);
    expect((await api.post('/data/search', { reference: 'NADA' })).body.credits_spent).toBe(0);
    expect((await api.post('/data/search', { part_id: 3 })).status).toBe(429); // the 5th in a minute of 4
    await app.api.get('/data/catalog/vehicle-models/57');
    await app.api.get('/v2/data/catalog/vehicle-models/58');
    await app.api.get('/data/catalog/brands');
    await app.api.get('/nao/existe/123', { unchecked: true });
    for (let i = 0; i < 4; i++)
      await app.api.withApiKey(`psk_${'x'.repeat(40)}${i}`).post('/data/search', {});
    text = await scrape();
  });
  afterAll(() => app?.close());

  it('refuses a scrape without the token, or with another (401, the error envelope)', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { Authorization: 'Bearer wrong-token-wrong-token' },
      { Authorization: TOKEN },
    ]) {
      const res = await fetch(`${app.baseUrl}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ success: false, code: 'INVALID_METRICS_TOKEN' });
    }
  });

  it('times requests by declared route pattern and status, never by the URL as sent', () => {
    // (no catalog seeded: 404 CATALOG_ENTRY_NOT_FOUND, a matched route all the same); /v2 counts too
    const series = { route: '/data/catalog/vehicle-models/:makeId', method: 'GET' };
    expect(seriesValue(text, 'pss_http_request_duration_seconds_count', series)).toBe(2);
    expect(
      seriesValue(text, 'pss_http_request_duration_seconds_count', { route: '/data/search', status: '200' }),
    ).toBe(3);
    expect(
      seriesValue(text, 'pss_http_request_duration_seconds_count', { route: '/data/search', status: '429' }),
    ).toBe(3); // one over the key's limit, two unknown keys past CREDENTIAL_FAILURES_PER_IP_PER_MINUTE
    expect(
      seriesValue(text, 'pss_http_request_duration_seconds_count', { route: 'unmatched', status: '404' }),
    ).toBe(1);
    expect(text).not.toContain('vehicle-models/57');
    expect(text).not.toContain('/nao/existe');
  });

  it('counts credits charged by kind, engine queries by engine and kind, refusals by limit', () => {
    expect(seriesValue(text, 'pss_credits_charged_total', { kind: 'search' })).toBe(2);
    expect(seriesValue(text, 'pss_credits_charged_total', { kind: 'stats' })).toBe(1);
    const engine = (kind: string) =>
      seriesValue(text, 'pss_engine_query_duration_seconds_count', {
        engine: 'postgres',
        kind,
        outcome: 'ok',
      });
    expect(engine('search')).toBe(3);
    expect(engine('stats')).toBe(1);
    expect(engine('facets')).toBe(1);
    expect(seriesValue(text, 'pss_rate_limit_refusals_total', { limit: 'requests_per_minute' })).toBe(1);
    expect(seriesValue(text, 'pss_rate_limit_refusals_total', { limit: 'credential_failures' })).toBe(2);
    expect(seriesValue(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it.skipIf(!TEST_DATABASE_URL)('shows the PostgreSQL pool', () => {
    expect(seriesValue(text, 'pss_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    expect(seriesValue(text, 'pss_db_pool_connections', { state: 'idle' })).not.toBeNull();
    expect(seriesValue(text, 'pss_db_pool_connections', { state: 'waiting' })).toBe(0);
  });

  it.skipIf(!TEST_REDIS_URL)('shows Redis up', () => {
    expect(seriesValue(text, 'pss_redis_up')).toBe(1);
  });

  it('does not serve /metrics on the API port without METRICS_TOKEN', async () => {
    const plain = await startTestApp({ database: app.database });
    try {
      const res = await fetch(`${plain.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ success: false, code: 'ROUTE_NOT_FOUND' });
    } finally {
      await plain.close();
    }
  });
});

describe.skipIf(!TEST_DATABASE_URL)('Prometheus metrics on METRICS_PORT', () => {
  it('serves GET /metrics, without credentials, on its own port only', async () => {
    const database = await createTestDatabase();
    const api = await startApiProcess({ DATABASE_URL: database.url!, METRICS_PORT: '0' });
    try {
      const url = /Métricas: (http:\/\/\S+)/.exec(api.output())?.[1];
      expect(url, api.output()).toBeDefined();
      await fetch(`${api.url}/health`);
      const res = await fetch(url!);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(seriesValue(text, 'pss_http_request_duration_seconds_count', { route: '/health' })).toBe(1);
      expect(seriesValue(text, 'pss_db_pool_connections', { state: 'total' })).not.toBeNull();
      expect((await fetch(url!.replace('/metrics', '/outra'))).status).toBe(404);
      expect((await fetch(`${api.url}/metrics`)).status).toBe(404);
    } finally {
      await api.stop();
      await database.drop();
    }
  });
});
