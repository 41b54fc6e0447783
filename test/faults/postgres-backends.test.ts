import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createTestAccount, type TestAccount } from '../helpers/accounts-fixture.js';
import { startApiProcess, type ApiProcess } from '../helpers/api-process.js';
import { expectLedgerMatchesBalance } from '../helpers/ledger-check.js';
import { startSearchLoad } from '../helpers/search-load.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { TEST_DATABASE_URL } from '../helpers/test-env.js';
import { waitUntil } from '../helpers/wait-until.js';

/** How the API process names its connections, so that only they are cut. */
const APPLICATION_NAME = `pss-api-fault-${process.pid}`;
/** Rounds of cuts at most (a quarter of a second apart) before giving up on catching a request. */
const MAX_ROUNDS = 240;

/**
 * The API's PostgreSQL connections are cut (pg_terminate_backend) while it serves 16 callers: the
 * requests in flight get 503 and are charged nothing, the process lives on, and the next requests
 * are served on new connections without a restart.
 */
describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL backends terminated mid-load', () => {
  let database: TestDatabase;
  let api: ApiProcess;
  let account: TestAccount;

  beforeAll(async () => {
    database = await createTestDatabase();
    await loadStockFixture(database.handle.db);
    account = await createTestAccount(database.handle.db, new ManualClock(new Date()), { credits: 100_000 });
    api = await startApiProcess({
      DATABASE_URL: database.url!,
      PGAPPNAME: APPLICATION_NAME,
      CREDENTIAL_CACHE_SECONDS: '0',
    });
  });
  afterAll(async () => {
    await api?.stop();
    await database?.drop();
  });

  it('in-flight requests get 503, nothing is charged for them, the process recovers by itself', async () => {
    const admin = new pg.Client({ connectionString: database.url! });
    await admin.connect();
    const load = startSearchLoad({
      url: api.url,
      credentials: [{ 'X-API-Key': account.apiKey }, { Authorization: `Bearer ${account.bearer}` }],
      // charged first pages and free searches that find nothing: both kinds of write
      body: (n) => (n % 3 === 0 ? { part_id: 7 } : n % 3 === 1 ? { reference: `NADA-${n}` } : { part_id: 3 }),
    });
    const unavailable = () => load.tally.statuses.get(503) ?? 0;
    let terminated = 0;
    let rounds = 0;
    try {
      await waitUntil(() => (load.tally.statuses.get(200) ?? 0) >= 20, '20 searches served before any cut');
      // A cut catches the requests that are using a connection at that moment. On two busy cores a
      // round may find none in flight (the callers between requests, the API between statements):
      // cut again, a quarter of a second apart, until a caller was answered 503 — within a generous
      // bound, and stopping at the first.
      while (unavailable() === 0 && rounds < MAX_ROUNDS) {
        rounds += 1;
        const cut = await admin.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
            where datname = current_database() and application_name = $1`,
          [APPLICATION_NAME],
        );
        terminated += cut.rowCount ?? 0;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    } finally {
      await load.stop();
      await admin.end();
    }
    const { tally } = load;

    expect(terminated).toBeGreaterThan(0);
    // some requests were in flight when their connection was cut, and were answered 503
    expect(unavailable(), `${rounds} rounds of cuts, ${terminated} connections cut`).toBeGreaterThan(0);
    expect(api.alive(), api.output()).toBe(true);
    expect(tally.transportErrors).toBe(0);
    const statuses = [...tally.statuses.keys()].sort();
    expect(
      statuses.every((s) => s === 200 || s === 503),
      JSON.stringify([...tally.statuses]),
    ).toBe(true);
    expect(tally.statuses.get(200) ?? 0).toBeGreaterThan(0);
    expect([...tally.errorCodes.keys()].every((code) => code === 'SERVICE_UNAVAILABLE')).toBe(true);

    // served again on fresh connections, without a restart
    await waitUntil(async () => {
      const res = await fetch(`${api.url}/data/search`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': account.apiKey },
        body: JSON.stringify({ reference: 'NADA-depois' }),
      });
      return res.status === 200;
    }, 'a search served on fresh connections');
    expect((await fetch(`${api.url}/ready`)).status).toBe(200);
    // the 503s were charged nothing: the credits debited are exactly those the 200s said they spent
    await expectLedgerMatchesBalance(database.handle.db, account.accountId, { spent: tally.creditsSpent });
  });
});
