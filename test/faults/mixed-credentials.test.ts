import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/accounts/api-keys.js';
import { createTestAccount, type TestAccount } from '../helpers/accounts-fixture.js';
import { expectLedgerMatchesBalance } from '../helpers/ledger-check.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TEST_DATABASE_URL } from '../helpers/test-env.js';
import type { TestClient } from '../helpers/test-client.js';
import type { SearchAnswer } from '../../web/src/api-types.js';

/**
 * One account searching through several credentials at once (two API keys and a Bearer session),
 * free searches (no results) mixed with charged ones. Every write of a search takes its locks in one
 * order (the account's row, then the key's), so no mix of them can deadlock; a deadlock would reach
 * the caller as a 500.
 */
describe.skipIf(!TEST_DATABASE_URL)('mixed free and charged searches on several credentials', () => {
  let app: TestApp;
  let account: TestAccount;
  let clients: TestClient[];

  beforeAll(async () => {
    app = await startTestApp();
    await loadStockFixture(app.services.db);
    account = await createTestAccount(app.services.db, app.clock, { credits: 100_000 });
    const second = await createApiKey(app.services.db, account.accountId, { name: 'second' });
    clients = [
      app.api.withApiKey(account.apiKey),
      app.api.withApiKey(second.key),
      app.api.withBearer(account.bearer),
    ];
  });
  afterAll(() => app?.close());

  it('600 requests at 10 concurrent: no 5xx, every charge in the ledger', async () => {
    const statuses = new Map<number, number>();
    let charged = 0;
    let next = 0;
    const worker = async () => {
      while (next < 600) {
        const n = next++;
        const client = clients[n % clients.length]!;
        // two in three find nothing (free, history row only), one in three is a charged first page
        const body = n % 3 === 0 ? { part_id: 7 } : { reference: `NADA-${n}` };
        const res = await client.post<SearchAnswer>('/data/search', body);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 200) charged += res.body.credits_spent ?? 0;
      }
    };
    await Promise.all(Array.from({ length: 10 }, worker));

    expect(Object.fromEntries(statuses)).toEqual({ 200: 600 });
    expect(charged).toBe(200);
    const searches = await sql<{ n: number }>`
      select count(*)::int as n from searches where account_id = ${account.accountId}`.execute(
      app.services.db,
    );
    expect(searches.rows[0]!.n).toBe(600);
    await expectLedgerMatchesBalance(app.services.db, account.accountId, { spent: charged });
  });

  it('a free search being written never makes a charge of the same account and key wait', async () => {
    const free = new pg.Client({ connectionString: app.database.url! });
    const charge = new pg.Client({ connectionString: app.database.url! });
    await Promise.all([free.connect(), charge.connect()]);
    try {
      const record = (cost: number) =>
        JSON.stringify([
          {
            account_id: account.accountId,
            api_key_id: account.apiKeyId,
            cost,
            day: '2026-11-23',
            now: '2026-11-23T12:00:00Z',
            kind: 'search',
            query: {},
            summary: 'lock order',
            total: cost,
            page: 1,
            per_page: 20,
            token_status: 'none',
          },
        ]);
      // the free search's transaction holds its foreign-key locks on the account and key rows
      await free.query('begin');
      await free.query('select * from record_searches($1::jsonb)', [record(0)]);
      await charge.query(`set lock_timeout = '3s'`);
      const charged = await charge.query<{ status: string }>('select * from record_searches($1::jsonb)', [
        record(1),
      ]);
      expect(charged.rows.map((r) => r.status)).toEqual(['ok']);
      await free.query('commit');
    } finally {
      await Promise.all([free.end(), charge.end()]);
    }
    await expectLedgerMatchesBalance(app.services.db, account.accountId);
  });
});
