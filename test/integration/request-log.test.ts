import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, type TestAccount } from '../helpers/accounts-fixture.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait-until.js';
import type { SearchAnswer } from '../../web/src/api-types.js';

type LogLine = Record<string, unknown> & { msg?: string; reqId?: string };

/**
 * DESIGN §6: pino JSON, one line per request with the request id, status, latency and credits
 * spent. The app logs to a pino instance of the test's own, writing to a stream the test reads.
 */
describe('one log line per request', () => {
  let app: TestApp;
  let account: TestAccount;
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n'))
        if (text.trim()) lines.push(JSON.parse(text) as LogLine);
      done();
    },
  });

  beforeAll(async () => {
    app = await startTestApp({ overrides: { logger: pino({ level: 'info' }, sink) } });
    await loadStockFixture(app.services.db);
    account = await createTestAccount(app.services.db, app.clock);
  });
  afterAll(() => app?.close());

  /** The request lines logged for one request id (waiting for the first to arrive). */
  async function linesFor(reqId: string): Promise<LogLine[]> {
    const found = await waitFor(
      `the log line of request ${reqId}`,
      () => lines.filter((l) => l.msg === 'request' && l.reqId === reqId),
      (matching) => matching.length > 0,
    );
    // the request line is written before the answer is sent, so any second one would be here already
    return found;
  }

  it('a charged search: exactly one line, with its request id, status, latency and 1 credit', async () => {
    const res = await app.api.withApiKey(account.apiKey).post<SearchAnswer>('/data/search', {
      part_id: 7,
    });
    expect(res.status).toBe(200);
    expect(res.body.credits_spent).toBe(1);
    const reqId = res.headers.get('x-request-id')!;
    expect(reqId).toBeTruthy();
    const logged = await linesFor(reqId);
    expect(logged).toHaveLength(1);
    const [line] = logged;
    expect(line).toMatchObject({
      msg: 'request',
      level: 30,
      reqId,
      method: 'POST',
      path: '/data/search',
      status: 200,
      credits_spent: 1,
      account: account.accountId,
    });
    expect(typeof line!.ms).toBe('number');
    expect(Number.isFinite(line!.ms)).toBe(true);
    expect(line!.ms as number).toBeGreaterThanOrEqual(0);
    // the line says what the search found, never what the caller's credential was
    expect(JSON.stringify(line)).not.toContain(account.apiKey);
  });

  it('a page fetched with the search token: one line with 0 credits; the caller’s request id is kept', async () => {
    const key = app.api.withApiKey(account.apiKey);
    const first = await key.post<SearchAnswer>('/data/search', { part_id: 7, per_page: 5 });
    const reqId = `pagina-2-${Date.now()}`;
    const page = await key.post<SearchAnswer>(
      '/data/search',
      { part_id: 7, per_page: 5, page: 2, search_token: first.body.search_token },
      { headers: { 'X-Request-Id': reqId } },
    );
    expect(page.status).toBe(200);
    expect(page.headers.get('x-search-token-status')).toBe('valid');
    expect(page.headers.get('x-request-id')).toBe(reqId);
    const logged = await linesFor(reqId);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ reqId, status: 200, credits_spent: 0 });
  });

  it('a refused request is logged too, once, with its status', async () => {
    const res = await app.api.post('/data/search', { part_id: 7 });
    expect(res.status).toBe(401);
    const reqId = res.headers.get('x-request-id')!;
    const logged = await linesFor(reqId);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ reqId, status: 401, path: '/data/search' });
    expect(logged[0]).not.toHaveProperty('credits_spent');
  });

  it('every request gets its own line: n requests, n distinct request ids, one line each', async () => {
    const key = app.api.withApiKey(account.apiKey);
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, i) => key.post('/data/search', { reference: `NADA-LOG-${i}` })),
    );
    const ids = responses.map((r) => r.headers.get('x-request-id')!);
    expect(new Set(ids).size).toBe(ids.length);
    for (const reqId of ids) {
      const logged = await linesFor(reqId);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ status: 200, credits_spent: 0 });
    }
  });
});
